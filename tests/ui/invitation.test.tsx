/**
 * /me/invitation: the invite link as a QR code another phone can scan (an SVG, no inline script or style), shared
 * where the browser can share, else copied.
 */
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../src/storage/keys';
import { testMeInfo } from '../support/fakeApi';
import { renderApp } from './support/renderApp';

const signedIn = { [STORAGE_KEYS.token]: '"token-bound"', [STORAGE_KEYS.userInfo]: JSON.stringify(testMeInfo()) };
const link = () => `${window.location.origin}/login/${testMeInfo().inviteCode}`;

describe('/me/invitation', () => {
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'share');
    vi.restoreAllMocks();
  });

  it('behavior: shows the invite link as a QR code drawn as one SVG path, with its accessible name', async () => {
    await renderApp({ path: '/me/invitation', stored: signedIn });
    const qr = await screen.findByRole('img', { name: 'QR code of your invite link' });
    expect(qr.tagName.toLowerCase()).toBe('svg');
    expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h/);
    expect(qr.hasAttribute('style')).toBe(false);
    expect(screen.getByTestId('invite-link').textContent).toBe(link());
  });

  it('behavior: offers no share button where the browser cannot share', async () => {
    await renderApp({ path: '/me/invitation', stored: signedIn });
    await screen.findByRole('img', { name: 'QR code of your invite link' });
    expect(screen.queryByRole('button', { name: 'Share invite link' })).toBeNull();
  });

  it('behavior: shares the invite link where the browser can', async () => {
    const share = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'share', { value: share, configurable: true });
    const app = await renderApp({ path: '/me/invitation', stored: signedIn });
    await app.user.click(await screen.findByRole('button', { name: 'Share invite link' }));
    expect(share).toHaveBeenCalledWith({ title: 'Join my team', text: 'Sign in with my invite link:', url: link() });
  });

  it('behavior: a cancelled share does nothing; a failed one copies the link instead', async () => {
    const share = vi.fn().mockRejectedValueOnce(new DOMException('cancelled', 'AbortError')).mockRejectedValueOnce(new DOMException('no', 'NotAllowedError'));
    Object.defineProperty(navigator, 'share', { value: share, configurable: true });
    const app = await renderApp({ path: '/me/invitation', stored: signedIn });
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    const button = await screen.findByRole('button', { name: 'Share invite link' });
    await app.user.click(button);
    expect(writeText).not.toHaveBeenCalled();
    await app.user.click(button);
    expect(await screen.findByRole('status')).toHaveProperty('textContent', 'Link copied');
    expect(writeText).toHaveBeenCalledWith(link());
  });
});
