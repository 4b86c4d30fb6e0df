/**
 * Operators' notice and about-page HTML, sanitised on the server by the member app's own rule (api-schema/richText.ts,
 * with DOMPurify as src/content/sanitizeHtml.ts) in a jsdom window, which parses HTML as a browser does. What is
 * stored is what the desk previews and what members receive; the member app sanitises it again before rendering.
 * jsdom is loaded on the first save, not at start: it takes about a second to load, which no start should pay.
 */
import DOMPurify from 'dompurify';
import { richTextLinkHook, richTextPurifyConfig } from '../../api-schema/richText';

interface RichText {
  sanitize(html: string): string;
  document: Document;
}

let loading: Promise<RichText> | null = null;

/** DOMPurify on a jsdom window with the rich-text rule, made once. */
function richText(): Promise<RichText> {
  loading ??= import('jsdom').then(({ JSDOM }) => {
    const { window } = new JSDOM('');
    const purifier = DOMPurify(window);
    purifier.addHook('afterSanitizeAttributes', richTextLinkHook);
    return { sanitize: (html: string) => purifier.sanitize(html, richTextPurifyConfig), document: window.document };
  });
  return loading;
}

/**
 * The member app's sanitising of notice and about-page HTML.
 *
 * @param html - what the operator wrote
 * @returns the HTML members may receive
 * @example
 * await sanitizeContent('<p onclick="x()">Hi</p><script>y()</script>'); // '<p>Hi</p>'
 */
export async function sanitizeContent(html: string): Promise<string> {
  return (await richText()).sanitize(html);
}

/**
 * The text of sanitised HTML, without angle brackets, whitespace collapsed, cut to `max` characters with an ellipsis:
 * a notice's summary when the operator writes none.
 *
 * @example await textSummary('<h2>Rules</h2><p>Minimum 10.</p>', 120); // 'Rules Minimum 10.'
 */
export async function textSummary(html: string, max: number): Promise<string> {
  const { sanitize, document } = await richText();
  const container = document.createElement('div');
  // Block ends become spaces, so "<h2>Rules</h2><p>Min" reads "Rules Min".
  container.innerHTML = sanitize(html).replace(/<\/(h[1-6]|p|li|td|th|tr|div)>/gi, '$& ');
  // Plain text: no angle brackets either, so a summary reads as no markup wherever it is shown.
  const text = (container.textContent ?? '').replace(/[<>]/g, '').replace(/\s+/g, ' ').trim();
  return [...text].length <= max ? text : `${[...text].slice(0, max - 1).join('').trimEnd()}…`;
}
