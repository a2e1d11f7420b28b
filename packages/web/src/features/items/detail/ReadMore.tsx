import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

const LINES = 4;

/** A summary clamped to four lines, with Read more / Read less when it is longer (ui.md §5). */
export function ReadMore({ text, prefix }: { text: string; prefix?: ReactNode }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const [expanded, setExpanded] = useState(false);
  const [overflows, setOverflows] = useState(false);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || expanded) return;
    const measure = () => setOverflows(el.scrollHeight > el.clientHeight + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [text, expanded]);

  return (
    <Box>
      <Typography
        ref={ref}
        component="div"
        variant="body2"
        // A summary is in its own language: let the text pick its direction, whatever the interface's.
        dir="auto"
        sx={{
          whiteSpace: 'pre-line',
          overflowWrap: 'anywhere',
          ...(expanded
            ? {}
            : { display: '-webkit-box', WebkitLineClamp: LINES, WebkitBoxOrient: 'vertical', overflow: 'hidden' }),
        }}
      >
        {prefix}
        {text}
      </Typography>
      {(overflows || expanded) && (
        <Button size="small" onClick={() => setExpanded((e) => !e)} aria-expanded={expanded} sx={{ px: 0 }}>
          {expanded ? t('items.detail.readLess') : t('items.detail.readMore')}
        </Button>
      )}
    </Box>
  );
}
