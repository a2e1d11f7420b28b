import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import ImageNotSupportedIcon from '@mui/icons-material/ImageNotSupported';
import { useThumbnailUrl, type PosterKind } from '../../../api/books';

/** Poster width on detail pages (ui.md §2.2): 212 px, narrower on phones so the title still fits beside it. */
export const DETAIL_POSTER_WIDTH = { xs: 120, sm: 212 } as const;

export interface PosterProps {
  kind: PosterKind;
  id: string;
  alt: string;
  /** Drawn over the bottom of the image (progress, "read on"). */
  children?: ReactNode;
}

/** An item's poster at the 1:√2 ratio, with a skeleton until the image arrives and a placeholder if it fails. */
export function Poster({ kind, id, alt, children }: PosterProps) {
  const src = useThumbnailUrl(kind, id);
  const [state, setState] = useState<{ src: string; status: 'loaded' | 'failed' } | null>(null);
  const status = state?.src === src ? state.status : 'loading';
  return (
    <Box
      sx={{
        position: 'relative',
        width: DETAIL_POSTER_WIDTH,
        flexShrink: 0,
        aspectRatio: '0.7071',
        borderRadius: 1,
        overflow: 'hidden',
        bgcolor: 'action.hover',
      }}
    >
      {status === 'loading' && (
        <Skeleton variant="rectangular" sx={{ position: 'absolute', inset: 0, height: '100%' }} />
      )}
      {status === 'failed' ? (
        <Box
          role="img"
          aria-label={alt}
          sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', color: 'text.disabled' }}
        >
          <ImageNotSupportedIcon fontSize="large" />
        </Box>
      ) : (
        <Box
          component="img"
          src={src}
          alt={alt}
          onLoad={() => setState({ src, status: 'loaded' })}
          onError={() => setState({ src, status: 'failed' })}
          sx={{
            position: 'absolute',
            inset: 0,
            width: '100%',
            height: '100%',
            objectFit: 'contain',
            opacity: status === 'loaded' ? 1 : 0,
            transition: 'opacity 150ms',
          }}
        />
      )}
      {children}
    </Box>
  );
}
