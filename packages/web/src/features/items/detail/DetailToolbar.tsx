import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Link as RouterLink } from 'react-router';
import { STICKY_TOP } from '../../../components/browse/SelectionBar';

export interface DetailToolbarProps {
  /** Where the back arrow goes, and its tooltip / accessible name. */
  back: { to: string; label: string };
  title?: ReactNode;
  /**
   * The toolbar title is the page's heading where no header repeats it (collection, read list). On a phone it then
   * gets a line of its own under the buttons; otherwise the header below shows it and the phone toolbar leaves it out.
   */
  titleIsHeading?: boolean;
  /** After the title: count chip, ordering note. */
  after?: ReactNode;
  /** Right end: menus, page size, filter. */
  actions?: ReactNode;
}

/** The sticky bar under the app bar on detail pages: back, title, actions. */
export function DetailToolbar({ back, title, titleIsHeading, after, actions }: DetailToolbarProps) {
  const heading = title !== undefined && (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
      <Typography
        variant="h6"
        component={titleIsHeading ? 'h1' : 'div'}
        sx={{ minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: { sm: 'nowrap' } }}
      >
        {title}
      </Typography>
      {after}
    </Box>
  );
  return (
    <Paper
      square
      elevation={0}
      sx={{
        position: 'sticky',
        ...STICKY_TOP,
        zIndex: (th) => th.zIndex.appBar - 1,
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      <Toolbar variant="dense" sx={{ gap: 1, minHeight: 56, flexWrap: 'wrap' }}>
        <Tooltip title={back.label}>
          <IconButton component={RouterLink} to={back.to} aria-label={back.label} edge="start">
            {/* The arrow points to the start of the line: right in right-to-left languages. */}
            <ArrowBackIcon sx={{ transform: (th) => (th.direction === 'rtl' ? 'scaleX(-1)' : undefined) }} />
          </IconButton>
        </Tooltip>
        {heading && (
          <Box
            sx={
              titleIsHeading
                ? // On a phone the heading wraps onto its own line under the buttons.
                  {
                    display: 'flex',
                    minWidth: 0,
                    order: { xs: 1, sm: 0 },
                    flexBasis: { xs: '100%', sm: 'auto' },
                    pb: { xs: 1, sm: 0 },
                  }
                : { display: { xs: 'none', sm: 'flex' }, minWidth: 0, flexShrink: 1 }
            }
          >
            {heading}
          </Box>
        )}
        <Box sx={{ flex: 1 }} />
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, flexShrink: 0 }}>{actions}</Box>
      </Toolbar>
    </Paper>
  );
}
