/**
 * jsdom lays nothing out; InfiniteScroll asks for more when its sentinel has an offsetParent in view. This makes every
 * element seem laid out, so a paged list loads its next page at once.
 *
 * @returns a function that puts offsetParent back
 * @example
 * const restore = pretendTheListEndIsInView();
 */
export function pretendTheListEndIsInView(): () => void {
  const descriptor = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetParent');
  Object.defineProperty(HTMLElement.prototype, 'offsetParent', { configurable: true, get: () => document.body });
  return () => {
    if (descriptor) Object.defineProperty(HTMLElement.prototype, 'offsetParent', descriptor);
  };
}
