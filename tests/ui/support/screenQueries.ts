/**
 * Small assertions on what the member sees, by role and accessible name (Testing Library's priority order), shared
 * by the UI tests. Each throws at the first difference, so they can run inside waitFor.
 */
import { screen } from '@testing-library/react';
import { expect } from 'vitest';
import type { RenderedApp } from './renderApp';

/**
 * The app's English text for `key`; fails when the key has no text, so a test never compares a raw key with a raw
 * key on screen.
 */
export function translated(app: RenderedApp): (key: string, values?: Record<string, unknown>) => string {
  return (key, values) => {
    if (!app.i18n.exists(key)) throw new Error(`no English text for ${key}`);
    return app.i18n.t(key, values);
  };
}

/** A button with this accessible name is shown. */
export function expectButton(name: string): void {
  expect(screen.getByRole('button', { name })).toBeTruthy();
}

/** No button with this accessible name is shown. */
export function expectNoButton(name: string): void {
  expect(screen.queryByRole('button', { name })).toBeNull();
}

/** A live status line says exactly `message`. */
export function expectStatus(message: string): void {
  expect(screen.queryAllByRole('status').map((element) => element.textContent)).toContain(message);
}

/** The alerts on screen, in order, are exactly these texts. */
export function expectAlerts(texts: readonly string[]): void {
  expect(screen.queryAllByRole('alert').map((element) => element.textContent)).toEqual(texts);
}

/** One of the alerts on screen says `text`. */
export function expectAlert(text: string): void {
  expect(screen.queryAllByRole('alert').map((element) => element.textContent)).toContain(text);
}

/** The page heading is `name`. */
export function expectHeading(name: string): void {
  expect(screen.getByRole('heading', { level: 1, name })).toBeTruthy();
}
