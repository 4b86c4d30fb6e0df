/**
 * The member-area guard (issue: "a member who is not signed in and opens a member page lands on /login and comes
 * back after sign-in; one with only a temporary token lands on /register").
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../src/storage/keys';
import { userInfoA } from '../../scripts/machineGraph/auth.model';
import { renderApp } from './support/renderApp';

const heading = (name: string) => screen.findByRole('heading', { level: 1, name });

describe('member pages and the session', () => {
  it('sends a signed-out member to /login and back to the page asked for after sign-in', async () => {
    const app = await renderApp({ path: '/me/invitation' });
    await heading('Sign in');
    expect(app.router.state.location.pathname).toBe('/login');
    await waitFor(() => expect(app.actors.config.getSnapshot().value).toBe('loaded'));
    await app.user.click(screen.getByRole('button', { name: 'Connect wallet' }));
    await app.user.click(await screen.findByRole('button', { name: 'Sign in' }));
    await heading('Invite friends');
    expect(app.router.state.location.pathname).toBe('/me/invitation');
    expect(app.storage.entries.get(STORAGE_KEYS.token)).toBe('"token-bound"');
  });

  it('sends a member with only a temporary token to /register', async () => {
    const app = await renderApp({
      path: '/home',
      stored: { [STORAGE_KEYS.tempToken]: '"token-temp"', [STORAGE_KEYS.sessionAddress]: JSON.stringify(userInfoA.address) },
    });
    await heading('Bind a recommender');
    expect(app.router.state.location.pathname).toBe('/register');
    expect(app.actors.auth.getSnapshot().matches('bindRequired')).toBe(true);
  });

  it('lets a restored bound member in, showing the stored user info', async () => {
    const app = await renderApp({
      path: '/me',
      stored: { [STORAGE_KEYS.token]: '"token-bound"', [STORAGE_KEYS.userInfo]: JSON.stringify(userInfoA) },
    });
    await heading('Me');
    expect(app.router.state.location.pathname).toBe('/me');
    expect(screen.getByTestId('me-address').textContent).toBe(userInfoA.address);
  });

  it('keeps a signed-in member away from /login', async () => {
    const app = await renderApp({
      path: '/login',
      stored: { [STORAGE_KEYS.token]: '"token-bound"', [STORAGE_KEYS.sessionAddress]: JSON.stringify(userInfoA.address) },
    });
    await heading('Home');
    expect(app.router.state.location.pathname).toBe('/home');
  });
});
