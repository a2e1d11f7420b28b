import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { Link as RouterLink } from 'react-router';

export interface ChipItem {
  key: string;
  label: string;
  /** An in-app link (a filtered browse page). */
  to?: string;
  /** An external link, opened in a new tab. */
  href?: string;
  /** Drawn fainter: derived rather than set on the item (book tags on a series). */
  faint?: boolean;
  title?: string;
}

/**
 * One metadata row (ui.md §5): an upper-case label, then chips that wrap. Rows line up as a two-column grid on wide
 * screens and stack on phones.
 */
export function MetadataRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      component="div"
      role="group"
      aria-label={label}
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: '10rem 1fr' },
        columnGap: 2,
        rowGap: 0.5,
        alignItems: 'baseline',
        py: 0.5,
      }}
    >
      <Typography variant="overline" color="text.secondary" sx={{ lineHeight: 2 }}>
        {label}
      </Typography>
      <Box sx={{ minWidth: 0 }}>{children}</Box>
    </Box>
  );
}

/** The chips of a metadata row. */
export function ChipRow({
  label,
  items,
  size = 'small',
}: {
  label: string;
  items: ChipItem[];
  size?: ChipProps['size'];
}) {
  if (!items.length) return null;
  return (
    <MetadataRow label={label}>
      <Box component="ul" sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75, m: 0, p: 0, listStyle: 'none' }}>
        {items.map((item) => (
          <li key={item.key}>
            <Chip
              size={size}
              label={item.label}
              title={item.title}
              variant={item.faint ? 'outlined' : 'filled'}
              clickable={!!(item.to || item.href)}
              {...(item.to
                ? { component: RouterLink, to: item.to }
                : item.href
                  ? {
                      component: 'a',
                      href: item.href,
                      target: '_blank',
                      rel: 'noreferrer',
                      icon: <OpenInNewIcon fontSize="small" />,
                    }
                  : {})}
              sx={item.faint ? { color: 'text.secondary' } : undefined}
            />
          </li>
        ))}
      </Box>
    </MetadataRow>
  );
}

/** A label and plain text (file facts on the book page). */
export function TextRow({ label, children }: { label: string; children: ReactNode }) {
  if (children === null || children === undefined || children === '') return null;
  return (
    <MetadataRow label={label}>
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere', lineHeight: 2 }}>
        {children}
      </Typography>
    </MetadataRow>
  );
}
