import type { ReactNode } from 'react';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Logo } from './Logo';

/** A centred message with the logo: welcome, not found and empty screens. */
export function MessagePage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 8, px: 2, maxWidth: 640, mx: 'auto' }}>
      <Logo size={96} />
      <Typography variant="h4" component="h1">
        {title}
      </Typography>
      {children}
    </Stack>
  );
}
