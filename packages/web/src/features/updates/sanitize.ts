import DOMPurify from 'dompurify';
import { marked } from 'marked';

/**
 * HTML from outside (an announcement feed, release notes) made safe to put in the page. DOMPurify removes scripts,
 * event handlers and `javascript:` URLs; on top of its defaults, only the HTML profile (no SVG or MathML), no
 * `<style>` nor `style` attribute (a feed must not restyle or cover the page), no forms, frames or objects; every
 * link opens in a new tab without access to this one (`rel="noopener noreferrer"`). Its own instance, so these
 * rules touch no other use of DOMPurify.
 */
const purifier = DOMPurify(window);
purifier.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

export function sanitizeHtml(html: string): string {
  return purifier.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
    FORBID_ATTR: ['style'],
  });
}

/** Release notes: Markdown (GitHub's flavour, as marked reads it) to sanitised HTML; raw HTML in it is sanitised too. */
export function markdownToSafeHtml(markdown: string): string {
  return sanitizeHtml(marked.parse(markdown, { async: false, gfm: true }));
}
