/**
 * The one rule for notice and about-page HTML (docs/API.md: "the client sanitises content"), read by the member app
 * (src/content/sanitizeHtml.ts, in the browser) and by the server (server/content/sanitize.ts, in jsdom, when an
 * operator saves), both with DOMPurify, so what the desk previews is what members render. DOMPurify removes scripts,
 * event handlers, javascript: URLs and the like; on top of its defaults, frames, forms and their controls never
 * survive, and every link opens in a new tab with rel="noopener noreferrer", so a notice can neither run code nor
 * take over the app's tab. Plain data and one function here: api-schema depends on no DOM library.
 */

// Inline style would also break the CSP (style-src 'self'); a <template> keeps a script inert only until someone clones it.
const forbiddenTags = ['iframe', 'frame', 'frameset', 'object', 'embed', 'form', 'input', 'button', 'select', 'textarea', 'style', 'link', 'meta', 'base', 'template', 'noscript'];
const forbiddenAttributes = ['style', 'formaction', 'action', 'srcdoc'];

/** DOMPurify's options for rich text. */
export const richTextPurifyConfig = {
  FORBID_TAGS: forbiddenTags,
  FORBID_ATTR: forbiddenAttributes,
  ADD_ATTR: ['target'],
  ALLOW_DATA_ATTR: false,
};

/** What the link rule needs of an element. */
interface ElementLike {
  tagName: string;
  hasAttribute(name: string): boolean;
  setAttribute(name: string, value: string): void;
}

/**
 * DOMPurify's `afterSanitizeAttributes` hook for rich text: a link opens in a new tab, without opener or referrer.
 *
 * @example purifier.addHook('afterSanitizeAttributes', richTextLinkHook);
 */
export function richTextLinkHook(node: ElementLike): void {
  if (node.tagName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
}
