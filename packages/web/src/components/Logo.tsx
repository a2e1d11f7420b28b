import Box from '@mui/material/Box';
import AutoStoriesIcon from '@mui/icons-material/AutoStories';

/** The product mark. Decorative: the text next to it names the product. */
export function Logo({ size = 48 }: { size?: number }) {
  return (
    <Box
      aria-hidden
      sx={{
        width: size,
        height: size,
        borderRadius: '50%',
        bgcolor: 'primary.main',
        color: 'primary.contrastText',
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        flexShrink: 0,
      }}
    >
      <AutoStoriesIcon sx={{ fontSize: size * 0.6 }} />
    </Box>
  );
}
