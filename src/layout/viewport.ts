/**
 * Viewport scaling (spec sections 1 and 9), in the way of amfe-flexible: the root font size is a tenth of the
 * layout width, so 1rem = 37.5px on the 375 px phones the design is drawn for; the body font size is 12 × the
 * device pixel ratio; and html gets the `hairlines` class where 0.5px borders really render. On a desktop the
 * page is a phone-width column (global.css), so the width used is capped at that column's width.
 */

/** The widest the phone column gets (global.css centres #root with this max-width). */
export const maxColumnWidthPx = 480;
export const hairlinesClass = 'hairlines';

export interface InstallViewportScalingParameters {
  /** Default 480 px, the column width of global.css. */
  maxWidthPx?: number | undefined;
}
export type InstallViewportScalingReturnType = () => void;
/** Installing never throws. */
export type InstallViewportScalingErrorType = never;

/**
 * Sets the root and body font sizes and the hairlines class, and keeps the root size in step on resize and
 * when the page comes back from the back-forward cache (pageshow with persisted).
 *
 * @param win - The window to scale (default `window`).
 * @param parameters - The column width cap.
 * @returns A function that removes the listeners and restores the previous sizes and class.
 * @example
 * const uninstall = installViewportScaling(); // html { font-size: 37.5px } on a 375 px phone
 */
export function installViewportScaling(
  win: Window = window,
  { maxWidthPx = maxColumnWidthPx }: InstallViewportScalingParameters = {},
): InstallViewportScalingReturnType {
  const doc = win.document;
  const html = doc.documentElement;
  const dpr = win.devicePixelRatio || 1;
  const previousRootFontSize = html.style.fontSize;
  let previousBodyFontSize: string | undefined;

  const setRootFontSize = () => {
    const width = Math.min(html.clientWidth || win.innerWidth, maxWidthPx);
    html.style.fontSize = `${width / 10}px`;
  };
  const setBodyFontSize = () => {
    if (!doc.body) return;
    previousBodyFontSize ??= doc.body.style.fontSize;
    doc.body.style.fontSize = `${12 * dpr}px`;
  };
  const onPageShow = (event: Event) => {
    if ('persisted' in event && event.persisted) setRootFontSize();
  };

  setRootFontSize();
  if (doc.body) setBodyFontSize();
  else doc.addEventListener('DOMContentLoaded', setBodyFontSize);
  const addedHairlines = !html.classList.contains(hairlinesClass) && rendersHairlines(doc, dpr);
  if (addedHairlines) html.classList.add(hairlinesClass);
  win.addEventListener('resize', setRootFontSize);
  win.addEventListener('pageshow', onPageShow);

  return () => {
    win.removeEventListener('resize', setRootFontSize);
    win.removeEventListener('pageshow', onPageShow);
    doc.removeEventListener('DOMContentLoaded', setBodyFontSize);
    html.style.fontSize = previousRootFontSize;
    if (doc.body && previousBodyFontSize !== undefined) doc.body.style.fontSize = previousBodyFontSize;
    if (addedHairlines) html.classList.remove(hairlinesClass);
  };
}

/**
 * The classic check: a 0.5px border that renders 1 device-independent pixel tall means the browser draws half
 * pixels. Only on dense screens, since at a ratio of 1 browsers round the border up to 1px.
 */
function rendersHairlines(doc: Document, dpr: number): boolean {
  if (dpr < 2) return false;
  const host = doc.createElement('body');
  const probe = doc.createElement('div');
  probe.style.border = '.5px solid transparent';
  host.appendChild(probe);
  doc.documentElement.appendChild(host);
  const renders = probe.offsetHeight === 1;
  doc.documentElement.removeChild(host);
  return renders;
}
