/**
 * Notice and about-page HTML from the server, made safe to render (API.md: "the client sanitises content").
 * DOMPurify removes scripts, event handlers, javascript: URLs and the like; on top of its defaults, frames, forms
 * and their controls never survive, and every link opens in a new tab with rel="noopener noreferrer", so a
 * notice can neither run code nor take over the app's tab.
 */
import DOMPurify from 'dompurify';

// Inline style would also break the CSP (style-src 'self'); a <template> keeps a script inert only until someone clones it.
const forbiddenTags = ['iframe', 'frame', 'frameset', 'object', 'embed', 'form', 'input', 'button', 'select', 'textarea', 'style', 'link', 'meta', 'base', 'template', 'noscript'];
const forbiddenAttributes = ['style', 'formaction', 'action', 'srcdoc'];

let purifier: ReturnType<typeof DOMPurify> | null = null;

/** One DOMPurify for the window, with the link hook installed once. */
function getPurifier(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  const instance = DOMPurify(window);
  instance.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  purifier = instance;
  return instance;
}

/**
 * Sanitises server HTML for rendering with dangerouslySetInnerHTML.
 *
 * @param html - the notice's or about page's content
 * @returns HTML with nothing executable left
 * @example
 * sanitizeHtml('<a href="https://example.org" onclick="x()">x</a><script>y()</script>');
 * // '<a href="https://example.org" target="_blank" rel="noopener noreferrer">x</a>'
 */
export function sanitizeHtml(html: string): string {
  return getPurifier().sanitize(html, {
    FORBID_TAGS: forbiddenTags,
    FORBID_ATTR: forbiddenAttributes,
    ADD_ATTR: ['target'],
    ALLOW_DATA_ATTR: false,
  });
}
