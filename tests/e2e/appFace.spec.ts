/**
 * What a member's phone, wallet and chat app see of the app besides its pages: the icons and the web app
 * manifest index.html links, loaded in Chromium under the page's own Content-Security-Policy, and the link preview
 * of an invite link in both languages (server/plugins/appIdentity.ts, linkPreview.ts). And a repeat visit: the
 * locale files are revalidated, not downloaded again.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setupJourneys } from './support/journey';

const e2e = setupJourneys();

/** The head's icon links and preview tags, as the page has them. */
function headOf(page: Page) {
  return page.evaluate(() => {
    const href = (rel: string) => document.querySelector<HTMLLinkElement>(`link[rel="${rel}"]`)?.href ?? null;
    const meta = [...document.querySelectorAll<HTMLMetaElement>('meta[property^="og:"], meta[name^="twitter:"]')];
    return {
      icon: href('icon'),
      appleTouchIcon: href('apple-touch-icon'),
      manifest: href('manifest'),
      preview: Object.fromEntries(meta.map((element) => [element.getAttribute('property') ?? element.name, element.content])),
    };
  });
}

/** Loads an image in the page, where the page's img-src applies; resolves with its natural width. */
function loadImage(page: Page, url: string) {
  return page.evaluate(async (source) => {
    const image = new Image();
    image.src = source;
    await image.decode();
    return image.naturalWidth;
  }, url);
}

describe('the app’s icons, manifest and link preview', () => {
  it.each([
    ['en-US', 'en', 'Member DApp', 'Member DApp · Invited with code DEMO2026', 'Connect your wallet and sign a message to sign in. Signing costs nothing.'],
    ['zh-CN', 'zh', '会员 DApp', '会员 DApp · 邀请码：DEMO2026', '连接钱包并签名即可登录，签名不会产生任何费用'],
  ])('behavior: %s: /login/DEMO2026 links an icon, an apple-touch-icon and a manifest that resolve, and previews the invite', async (locale, lang, name, title, description) => {
    const { context, page, problems } = await e2e.open({ locale, wallet: null });
    await page.goto('/login/DEMO2026');
    await page.locator('.notice').waitFor();
    const head = await headOf(page);
    const origin = e2e.server.url;
    expect(head).toEqual({
      icon: `${origin}/media/icons/icon.svg`,
      appleTouchIcon: `${origin}/media/icons/icon-180.png`,
      manifest: `${origin}/manifest.webmanifest`,
      preview: {
        'og:title': title,
        'og:description': description,
        'og:image': `${origin}/media/icons/icon-512.png`,
        'og:url': `${origin}/login/DEMO2026`,
        'twitter:card': 'summary',
      },
    });

    // Each resolves (200, its type), as a wallet or a chat app fetches it.
    for (const [url, type] of [
      [head.icon, 'image/svg+xml'],
      [head.appleTouchIcon, 'image/png'],
      [head.preview['og:image'], 'image/png'],
      [head.manifest, 'application/manifest+json; charset=utf-8'],
    ] as const) {
      const response = await context.request.get(url ?? '');
      expect(response.status(), url ?? '').toBe(200);
      expect(response.headers()['content-type'], url ?? '').toBe(type);
    }
    // The page itself may load them: the icons under img-src, the manifest under manifest-src (Chromium's own fetch).
    expect(await loadImage(page, head.icon ?? '')).toBeGreaterThan(0);
    expect(await loadImage(page, head.appleTouchIcon ?? '')).toBe(180);
    const cdp = await context.newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[]; data?: string };
    expect(manifest.errors).toEqual([]);
    expect(JSON.parse(manifest.data ?? '{}')).toMatchObject({ name, lang, start_url: '/', display: 'standalone' });
    expect(problems.errors).toEqual([]);
    // No policy violation either: setupJourneys fails the test on any.
  });
});

describe('a repeat visit', () => {
  it('behavior: a reload revalidates the locale files and gets 304 for each, with no body', async () => {
    const { context, page } = await e2e.open({ locale: 'en-US', wallet: null });
    // The status on the wire: Playwright reports a revalidated answer as the cached 200, Chromium's network layer
    // (extra info) as the 304 the server sent.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const pathOf = new Map<string, string>();
    const statusOf = new Map<string, number>();
    /** The locale files' requests that finished, by Chromium's request id. */
    const finished: string[] = [];
    cdp.on('Network.requestWillBeSent', ({ requestId, request }) => pathOf.set(requestId, new URL(request.url).pathname));
    cdp.on('Network.responseReceivedExtraInfo', ({ requestId, statusCode }) => statusOf.set(requestId, statusCode));
    cdp.on('Network.loadingFinished', ({ requestId }) => {
      if (pathOf.get(requestId)?.startsWith('/locales/')) finished.push(requestId);
    });
    // What the page asked with, and the body bytes it received.
    const requests: Promise<{ path: string; ifNoneMatch: string | undefined; bodyBytes: number }>[] = [];
    page.on('requestfinished', (request) => {
      const path = new URL(request.url()).pathname;
      if (!path.startsWith('/locales/')) return;
      requests.push(Promise.all([request.allHeaders(), request.sizes()]).then(([headers, sizes]) => ({ path, ifNoneMatch: headers['if-none-match'], bodyBytes: sizes.responseBodySize })));
    });
    // Both files are asked for, each when its part of the app has run: wait for the two answers, not for a quiet network.
    // Chromium may report an answer's status on the wire (its extra info) after the request finished: wait for both
    // (on a loaded host a 304 read as soon as it finished had no status yet).
    const wire = async () => {
      await expect.poll(() => finished.length >= 2 && finished.every((id) => statusOf.has(id)), { timeout: 10_000 }).toBe(true);
      return finished
        .splice(0)
        .map((id) => [pathOf.get(id) ?? '', statusOf.get(id) ?? 0] as const)
        .sort(([a], [b]) => a.localeCompare(b));
    };
    const sent = async () => {
      await expect.poll(() => requests.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      return (await Promise.all(requests.splice(0))).sort((a, b) => a.path.localeCompare(b.path));
    };

    // The about page is public and fetches its texts (the sign-in page carries its own in the document).
    await page.goto('/me/about', { waitUntil: 'networkidle' });
    expect(await wire()).toEqual([
      ['/locales/en/about.json', 200],
      ['/locales/en/common.json', 200],
    ]);
    expect((await sent()).map(({ ifNoneMatch }) => ifNoneMatch)).toEqual([undefined, undefined]);

    await page.reload({ waitUntil: 'networkidle' });
    expect(await wire()).toEqual([
      ['/locales/en/about.json', 304],
      ['/locales/en/common.json', 304],
    ]);
    const again = await sent();
    expect(again.map(({ path }) => path)).toEqual(['/locales/en/about.json', '/locales/en/common.json']);
    expect(again.every(({ ifNoneMatch, bodyBytes }) => /^"[\w-]+"$/.test(ifNoneMatch ?? '') && bodyBytes === 0)).toBe(true);
    // The texts from the revalidated copies are on the page.
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/\w/);
  });
});
