/**
 * The notice sanitiser against a corpus of XSS payloads (tests/data/xss-payloads.txt): nothing executable survives,
 * whether the payload stands alone or inside ordinary notice markup. Runs in jsdom, which parses HTML like a browser.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from '../../src/content/sanitizeHtml';

const payloads = readFileSync(path.resolve(import.meta.dirname, '../data/xss-payloads.txt'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.startsWith('#'));

const executableTags = ['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'form', 'input', 'button', 'select', 'textarea', 'style', 'link', 'meta', 'base', 'template', 'noscript'];
const urlAttributes = ['href', 'src', 'xlink:href', 'action', 'formaction', 'background', 'poster', 'data', 'srcset', 'to', 'values'];

/** What in the sanitised HTML could run code or navigate the app's tab, as text for the assertion message. */
function executableParts(html: string): string[] {
  const container = document.createElement('div');
  container.innerHTML = html;
  const found: string[] = [];
  for (const element of container.querySelectorAll('*')) {
    const tag = element.tagName.toLowerCase();
    if (executableTags.includes(tag)) found.push(`<${tag}>`);
    for (const attribute of element.attributes) {
      const name = attribute.name.toLowerCase();
      // Browsers ignore control characters and spaces inside a URL scheme ("jav\tascript:"), so the check does too.
      const value = [...attribute.value].filter((char) => char.charCodeAt(0) > 32).join('').toLowerCase();
      if (name.startsWith('on')) found.push(`${tag}[${name}]`);
      if (name === 'style' || name === 'srcdoc') found.push(`${tag}[${name}]`);
      if (urlAttributes.includes(name) && /^(javascript|vbscript|data:text\/html|data:image\/svg)/.test(value)) found.push(`${tag}[${name}=${value}]`);
    }
    if (tag === 'a' && element.getAttribute('href') !== null) {
      if (element.getAttribute('target') !== '_blank') found.push('a without target=_blank');
      if (element.getAttribute('rel') !== 'noopener noreferrer') found.push('a without rel=noopener noreferrer');
    }
  }
  return found;
}

describe('sanitizeHtml', () => {
  it('has a corpus to check', () => {
    expect(payloads.length).toBeGreaterThan(70);
  });

  it.each(payloads)('leaves nothing executable of %s', (payload) => {
    expect(executableParts(sanitizeHtml(payload))).toEqual([]);
    expect(executableParts(sanitizeHtml(`<h2>Notice</h2><p>Before ${payload} after</p><table><tr><td>${payload}</td></tr></table>`))).toEqual([]);
  });

  it('keeps what a notice needs: headings, lists, tables, images and links that open in a new tab', () => {
    const html = sanitizeHtml(
      '<h2>Title</h2><p>Text <strong>bold</strong></p><ul><li>one</li></ul><table><tr><th>A</th><td>1</td></tr></table>' +
        '<img src="data:image/png;base64,iVBORw0KGgo=" alt="chart"><a href="https://example.org/rules">rules</a>',
    );
    expect(html).toBe(
      '<h2>Title</h2><p>Text <strong>bold</strong></p><ul><li>one</li></ul><table><tbody><tr><th>A</th><td>1</td></tr></tbody></table>' +
        '<img src="data:image/png;base64,iVBORw0KGgo=" alt="chart"><a href="https://example.org/rules" target="_blank" rel="noopener noreferrer">rules</a>',
    );
  });

  it('catches an executable part when there is one (the check itself works)', () => {
    expect(executableParts('<img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a>')).toEqual([
      'img[onerror]',
      'a[href=javascript:alert(1)]',
      'a without target=_blank',
      'a without rel=noopener noreferrer',
    ]);
  });
});
