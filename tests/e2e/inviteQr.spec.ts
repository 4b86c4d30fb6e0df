/**
 * The invite QR read back the way another phone would: a screenshot of the code on /me/invitation, decoded by a QR
 * reader (jsQR), holds exactly the invite link shown beside it, and that link signs a second member in under the
 * first one.
 */
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser';
import { readSession, setupJourneys, signInThroughInvite } from './support/journey';
import { anvilKeys } from './support/wallet/anvilKeys';

const e2e = setupJourneys();

describe('invite QR', () => {
  it('decodes to the invite link shown on the page, which invites the next member', async () => {
    // The first member is signed in over HTTP; the second signs in through the screens, with the decoded link.
    const a = await e2e.open({ wallet: { chainId: 56, privateKeys: [anvilKeys[1]] }, signedIn: {} });
    if (!a.wallet) throw new Error('needs the test wallet');
    await a.page.goto('/me/invitation');
    const qr = a.page.getByRole('img', { name: 'QR code of your invite link' });
    await qr.waitFor();
    const box = await qr.boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(200);
    await screenshot(a.page, 'invite-qr');

    const png = PNG.sync.read(await qr.screenshot());
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    const shownLink = (await a.page.getByTestId('invite-link').textContent()) ?? '';
    expect(decoded?.data).toBe(shownLink);
    const inviteUrl = new URL(shownLink);
    expect(inviteUrl.origin).toBe(new URL(e2e.server.url).origin);
    const inviteCode = inviteUrl.pathname.replace('/login/', '');
    expect(inviteCode).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);

    const b = await e2e.open({ wallet: { chainId: 56, privateKeys: [anvilKeys[2]] } });
    if (!b.wallet) throw new Error('needs the test wallet');
    await signInThroughInvite(b.page, b.wallet, inviteCode);
    const userInfo = JSON.parse((await readSession(b.page)).USER_INFO_STORE ?? 'null') as { recommender?: string } | null;
    expect(userInfo?.recommender?.toLowerCase()).toBe(a.wallet.address.toLowerCase());
  });
});
