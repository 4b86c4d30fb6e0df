/**
 * Operators' notice and about-page HTML, sanitised on the server by the member app's own rule (api-schema/richText.ts,
 * with DOMPurify as src/content/sanitizeHtml.ts) in a jsdom window, which parses HTML as a browser does. What is
 * stored is what the desk previews and what members receive; the member app sanitises it again before rendering.
 */
import DOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import { richTextLinkHook, richTextPurifyConfig } from '../../api-schema/richText';

let window: (Window & typeof globalThis) | null = null;
let sanitizer: ((html: string) => string) | null = null;

/** DOMPurify on a jsdom window with the rich-text rule. */
function createSanitizer(root: Window & typeof globalThis): (html: string) => string {
  const purifier = DOMPurify(root);
  purifier.addHook('afterSanitizeAttributes', richTextLinkHook);
  return (html) => purifier.sanitize(html, richTextPurifyConfig);
}

function jsdomWindow(): Window & typeof globalThis {
  window ??= new JSDOM('').window;
  return window;
}

/**
 * The member app's sanitising of notice and about-page HTML.
 *
 * @param html - what the operator wrote
 * @returns the HTML members may receive
 * @example
 * sanitizeContent('<p onclick="x()">Hi</p><script>y()</script>'); // '<p>Hi</p>'
 */
export function sanitizeContent(html: string): string {
  sanitizer ??= createSanitizer(jsdomWindow());
  return sanitizer(html);
}

/**
 * The text of sanitised HTML, without angle brackets, whitespace collapsed, cut to `max` characters with an ellipsis: a notice's summary
 * when the operator writes none.
 *
 * @example textSummary('<h2>Rules</h2><p>Minimum 10.</p>', 120); // 'Rules Minimum 10.'
 */
export function textSummary(html: string, max: number): string {
  const container = jsdomWindow().document.createElement('div');
  // Block ends become spaces, so "<h2>Rules</h2><p>Min" reads "Rules Min".
  container.innerHTML = sanitizeContent(html).replace(/<\/(h[1-6]|p|li|td|th|tr|div)>/gi, '$& ');
  // Plain text: no angle brackets either, so a summary reads as no markup wherever it is shown.
  const text = (container.textContent ?? '').replace(/[<>]/g, '').replace(/\s+/g, ' ').trim();
  return [...text].length <= max ? text : `${[...text].slice(0, max - 1).join('').trimEnd()}…`;
}
