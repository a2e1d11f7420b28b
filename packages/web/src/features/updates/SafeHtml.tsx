import { useMemo } from 'react';
import Box from '@mui/material/Box';
import { markdownToSafeHtml, sanitizeHtml } from './sanitize';

/** Outside HTML (or Markdown), sanitised before it reaches the DOM (sanitize.ts); typography follows the theme. */
export function SafeHtml({ html, markdown }: { html?: string; markdown?: string }) {
  const safe = useMemo(
    () => (markdown !== undefined ? markdownToSafeHtml(markdown) : sanitizeHtml(html ?? '')),
    [html, markdown],
  );
  return (
    <Box
      sx={{
        typography: 'body2',
        overflowWrap: 'anywhere',
        '& img': { maxWidth: '100%', height: 'auto' },
        '& a': { color: 'primary.main' },
        '& pre': { overflowX: 'auto' },
        '& h1, & h2, & h3, & h4': { typography: 'subtitle1', fontWeight: 'bold', mt: 2, mb: 1 },
      }}
      // Sanitised just above: the one place outside HTML enters the page.
      dangerouslySetInnerHTML={{ __html: safe }}
    />
  );
}
