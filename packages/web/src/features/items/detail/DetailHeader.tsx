import type { ReactNode } from 'react';
import Box from '@mui/material/Box';

export interface DetailHeaderProps {
  poster: ReactNode;
  /** Titles, facts and chips: beside the poster at every width. */
  info: ReactNode;
  /** Buttons and summary: beside the poster on wide screens, full width under it on phones. */
  children?: ReactNode;
}

/**
 * The top of a series or book page: the poster with the information next to it. On a phone the column beside the
 * poster is narrow, so the buttons and the summary move under both and take the whole width.
 */
export function DetailHeader({ poster, info, children }: DetailHeaderProps) {
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: 'auto minmax(0, 1fr)',
        gridTemplateRows: { sm: 'auto 1fr' },
        gridTemplateAreas: { xs: '"poster info" "body body"', sm: '"poster info" "poster body"' },
        columnGap: { xs: 2, sm: 3 },
        rowGap: 1.5,
        p: { xs: 2, sm: 3 },
        alignItems: 'start',
      }}
    >
      <Box sx={{ gridArea: 'poster' }}>{poster}</Box>
      <Box sx={{ gridArea: 'info', minWidth: 0, display: 'flex', flexDirection: 'column', gap: 1 }}>{info}</Box>
      {children && (
        <Box sx={{ gridArea: 'body', minWidth: 0, display: 'flex', flexDirection: 'column', gap: 1.5 }}>{children}</Box>
      )}
    </Box>
  );
}
