/**
 * Bytes on the wire, as the project's own server sends them: Debian's Chromium (a phone-sized page, its usual
 * Accept-Encoding, which includes br and gzip) opens /login/DEMO2026 with the e2e test wallet injected, and every
 * answer's encoded body and headers are summed (Playwright's request sizes). Two figures: the first load (until
 * the network is idle, before the member taps anything) and what a member loads to sign in (everything up to the
 * memberSignLogin answer: connect, the wallet path and the signature).
 */
import type { Page, Response } from 'playwright-core';
import { launchBrowser, newPhoneContext } from '../tests/e2e/support/browser';
import { waitForAppConfig } from '../tests/e2e/support/journey';
import { anvilKeys } from '../tests/e2e/support/wallet/anvilKeys';
import { TestWallet } from '../tests/e2e/support/wallet/testWallet';

export interface WireFile {
  url: string;
  bytes: number;
  encoding: string;
}

export interface WireLoad {
  files: WireFile[];
  bytes: number;
}

export interface WireFigures {
  firstLoad: WireLoad;
  signIn: WireLoad;
}

const loadOf = (files: WireFile[]): WireLoad => ({ files: [...files], bytes: files.reduce((sum, file) => sum + file.bytes, 0) });

/** Records every answer the page receives, with its transferred size, in arrival order. */
function recordAnswers(page: Page): { files: WireFile[]; settled: () => Promise<void> } {
  const files: WireFile[] = [];
  const pending: Promise<void>[] = [];
  page.on('response', (response: Response) => {
    pending.push(
      response
        .finished()
        .then(() => response.request().sizes())
        .then(({ responseBodySize, responseHeadersSize }) => {
          const url = new URL(response.url());
          files.push({ url: `${url.pathname}${url.search}`, bytes: responseBodySize + responseHeadersSize, encoding: response.headers()['content-encoding'] ?? 'identity' });
        })
        .catch(() => undefined),
    );
  });
  return { files, settled: async () => void (await Promise.all(pending)) };
}

/**
 * Measures both loads against a running app server.
 *
 * @param origin - e.g. http://127.0.0.1:41234
 * @example
 * const { firstLoad, signIn } = await measureWire(server.url);
 */
export async function measureWire(origin: string): Promise<WireFigures> {
  const browser = await launchBrowser();
  try {
    const context = await newPhoneContext(browser, { baseURL: origin, locale: 'en-US' });
    const wallet = await TestWallet.install(context, { chainId: 56, privateKeys: [anvilKeys[5]] });
    const page = await context.newPage();
    const answers = recordAnswers(page);
    await page.goto('/login/DEMO2026', { waitUntil: 'networkidle' });
    await waitForAppConfig(page);
    await answers.settled();
    const firstLoad = loadOf(answers.files);

    await page.getByRole('button', { name: 'Connect wallet' }).click();
    const signedIn = page.waitForResponse((response) => response.url().endsWith('/api/member/memberSignLogin'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await (await signedIn).finished();
    await answers.settled();
    if (wallet.signedMessages.length !== 1) throw new Error('the sign-in signed no message');
    const signIn = loadOf(answers.files);
    await context.close();
    return { firstLoad, signIn };
  } finally {
    await browser.close();
  }
}
