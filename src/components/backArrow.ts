import type { ReactElement } from 'react';

/** The back arrow, drawn once its icon is loaded (loadBackArrow). */
let arrow: ReactElement | undefined;

/**
 * The back arrow (hidden from assistive technology: the button carries the name), or undefined before loadBackArrow
 * has finished. Only screens loaded on demand have a way back, and each loads the icon before it renders
 * (src/app/routes.tsx), so none draws its bar without it; the sign-in page, which has none, does not download it
 * (bench/README.md section 1).
 *
 * @returns the arrow's element, or undefined
 * @example
 * <button aria-label={t('nav.back')}>{backArrow()}</button>
 */
export const backArrow = (): ReactElement | undefined => arrow;

/**
 * Loads the back arrow's icon (antd-mobile's LeftOutline). Never rejects: without it the back button stays, named,
 * with no drawing.
 *
 * @returns resolves when the icon is there, or failed to load
 * @example
 * await loadBackArrow(); // with a screen's code
 */
export async function loadBackArrow(): Promise<void> {
  if (arrow) return;
  try {
    arrow = (await import('./backArrowIcon')).backArrowDrawing;
  } catch (error: unknown) {
    console.error('back arrow not loaded', error);
  }
}
