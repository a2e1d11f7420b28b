import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** A large icon in a soft circle, a title, a hint and optional actions (ui.md §2.8). */
export function EmptyState({
  icon,
  title,
  subtitle,
  children,
}: {
  icon: ReactNode;
  title: string;
  subtitle?: string;
  children?: ReactNode;
}) {
  return (
    <Stack role="status" spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 6, px: 2 }}>
      <Box
        aria-hidden
        sx={{
          width: { xs: 160, sm: 240 },
          height: { xs: 160, sm: 240 },
          borderRadius: '50%',
          bgcolor: 'action.hover',
          color: 'text.secondary',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          '& svg': { fontSize: { xs: 72, sm: 110 } },
        }}
      >
        {icon}
      </Box>
      <Typography variant="h5" component="p">
        {title}
      </Typography>
      {subtitle && <Typography color="text.secondary">{subtitle}</Typography>}
      {children}
    </Stack>
  );
}
