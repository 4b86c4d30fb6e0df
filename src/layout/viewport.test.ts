// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installViewportScaling } from './viewport';

const html = document.documentElement;
let uninstall: (() => void) | undefined;

function setViewport(width: number, dpr = 1) {
  Object.assign(window, { innerWidth: width, devicePixelRatio: dpr });
}

function pageShow(persisted: boolean) {
  const event = new Event('pageshow');
  Object.defineProperty(event, 'persisted', { value: persisted });
  window.dispatchEvent(event);
}

beforeEach(() => setViewport(375));

afterEach(() => {
  uninstall?.();
  uninstall = undefined;
  vi.restoreAllMocks();
  html.removeAttribute('style');
  html.className = '';
  document.body.removeAttribute('style');
});

describe('installViewportScaling', () => {
  it('behavior: root font size is a tenth of the phone width', () => {
    uninstall = installViewportScaling(window);
    expect(html.style.fontSize).toBe('37.5px');
  });

  it('behavior: on a desktop the width is capped at the 480 px column', () => {
    setViewport(1440);
    uninstall = installViewportScaling(window);
    expect(html.style.fontSize).toBe('48px');
  });

  it('behavior: body font size is 12 times the device pixel ratio', () => {
    setViewport(390, 3);
    uninstall = installViewportScaling(window);
    expect(document.body.style.fontSize).toBe('36px');
  });

  it('behavior: resize updates the root font size', () => {
    uninstall = installViewportScaling(window);
    setViewport(414);
    window.dispatchEvent(new Event('resize'));
    expect(html.style.fontSize).toBe('41.4px');
  });

  it('behavior: pageshow from the back-forward cache updates it, a plain pageshow does not', () => {
    uninstall = installViewportScaling(window);
    setViewport(320);
    pageShow(false);
    expect(html.style.fontSize).toBe('37.5px');
    pageShow(true);
    expect(html.style.fontSize).toBe('32px');
  });

  it('behavior: hairlines class when a 0.5px border renders 1px tall on a dense screen', () => {
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(1);
    setViewport(375, 2);
    uninstall = installViewportScaling(window);
    expect(html.classList.contains('hairlines')).toBe(true);
    expect(document.querySelectorAll('body')).toHaveLength(1);
  });

  it('behavior: no hairlines class when the border rounds to 0, or at a ratio of 1', () => {
    const offsetHeight = vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(0);
    setViewport(375, 2);
    uninstall = installViewportScaling(window);
    expect(html.classList.contains('hairlines')).toBe(false);
    uninstall();
    offsetHeight.mockReturnValue(1);
    setViewport(375, 1);
    uninstall = installViewportScaling(window);
    expect(html.classList.contains('hairlines')).toBe(false);
  });

  it('behavior: uninstall removes the listeners and restores sizes and class', () => {
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(1);
    html.style.fontSize = '16px';
    setViewport(375, 2);
    const remove = installViewportScaling(window);
    remove();
    expect([html.style.fontSize, document.body.style.fontSize, html.classList.contains('hairlines')]).toEqual(['16px', '', false]);
    setViewport(414);
    window.dispatchEvent(new Event('resize'));
    expect(html.style.fontSize).toBe('16px');
  });

  it('behavior: without a body yet, the body size is set on DOMContentLoaded', () => {
    const body = document.body;
    html.removeChild(body);
    setViewport(375, 2);
    uninstall = installViewportScaling(window);
    html.appendChild(body);
    document.dispatchEvent(new Event('DOMContentLoaded'));
    expect(body.style.fontSize).toBe('24px');
  });
});
