/**
 * The built index.html carries the page's Content-Security-Policy as its first <head> element (ADR 0007): scripts
 * and styles the page loads are held to it, while a wallet's inline script injected before it still runs
 * (tests/e2e/walletBrowsers.spec.ts). globalSetup has built dist/spa from the current sources.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ICON_PATHS, MANIFEST_PATH } from '../../server/plugins/appIdentity';
import { PAGE_POLICY, serializeCsp } from '../../server/plugins/contentSecurityPolicy';
import { spaDir } from './support/build';

describe('built index.html', () => {
  it('behavior: opens <head> with the page policy, before any script or stylesheet, and keeps the charset in the first 1024 bytes', async () => {
    const html = await readFile(path.join(spaDir, 'index.html'), 'utf8');
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
    expect(meta?.[1]?.replaceAll('&#39;', "'")).toBe(serializeCsp(PAGE_POLICY));
    const head = html.slice(html.indexOf('<head>') + '<head>'.length).trimStart();
    expect(head.startsWith('<meta http-equiv="Content-Security-Policy"')).toBe(true);
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.search(/<script|<link rel="stylesheet"/));
    expect(Buffer.byteLength(html.slice(0, html.indexOf('<meta charset="UTF-8"')), 'utf8')).toBeLessThan(1024);
    expect(serializeCsp(PAGE_POLICY)).not.toContain('frame-ancestors'); // ignored (and reported) in a <meta>
  });

  it('behavior: keeps the icon, apple-touch-icon and manifest links as written: the server sends those files, not the build', async () => {
    const html = await readFile(path.join(spaDir, 'index.html'), 'utf8');
    expect(html).toContain(`<link rel="icon" href="${ICON_PATHS.svg}" type="image/svg+xml" />`);
    expect(html).toContain(`<link rel="apple-touch-icon" href="${ICON_PATHS.appleTouch}" />`);
    expect(html).toContain(`<link rel="manifest" href="${MANIFEST_PATH}" />`);
  });

  it('behavior: records what it was built from, so npm start, the e2e setup and the bench see any change (scripts/start.mjs needsBuild)', async () => {
    const recorded = JSON.parse(await readFile(path.join(spaDir, '.vite', 'inputs.json'), 'utf8')) as string[];
    const expected = ['index.html', 'package-lock.json', 'vite.config.ts', 'scripts/vite/cspMetaPlugin.ts', 'server/plugins/contentSecurityPolicy.ts', 'src/main.tsx', 'machines/wallet/walletMachine.ts', 'api-schema/codes.ts'];
    expect(recorded).toEqual(expect.arrayContaining(expected));
    expect(recorded.filter((file) => file.startsWith('/') || file.includes('node_modules'))).toEqual([]);
  });
});
