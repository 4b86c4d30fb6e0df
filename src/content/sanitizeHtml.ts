/**
 * Notice and about-page HTML from the server, made safe to render by the one rule of api-schema/richText.ts (the
 * server applies the same rule when an operator saves).
 */
import DOMPurify from 'dompurify';
import { richTextLinkHook, richTextPurifyConfig } from '../../api-schema/richText';

let purifier: ReturnType<typeof DOMPurify> | null = null;

/** One DOMPurify for the window, with the link hook installed once. */
function getPurifier(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  const instance = DOMPurify(window);
  instance.addHook('afterSanitizeAttributes', richTextLinkHook);
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
  return getPurifier().sanitize(html, richTextPurifyConfig);
}
