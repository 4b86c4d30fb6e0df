/**
 * A repeat visit on a mobile network must not download the translations again: /locales/{lng}/{ns}.json
 * stay no-cache (every visit checks) but carry a strong ETag made from the file's bytes, so the check is a 304 with
 * no body until the file changes.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entityTagOf, isNotModified } from '../../server/plugins/entityTag';
import { describeWithDatabases } from './support/harness';
import { createStaticSite, type StaticSite } from './support/staticSite';

/** Over compression.ts's 1 KiB threshold, so the first answer is compressed. */
const bigLocale = JSON.stringify({ layout: { appName: 'Member DApp' }, filler: 'Sign in with your wallet. '.repeat(80) });

describe('entity tags', () => {
  it('behavior: the same bytes give the same strong tag; a changed byte gives another', () => {
    expect(entityTagOf('{"a":"b"}')).toBe(entityTagOf(Buffer.from('{"a":"b"}')));
    expect(entityTagOf('{"a":"b"}')).not.toBe(entityTagOf('{"a":"c"}'));
    expect(entityTagOf('{"a":"b"}')).toMatch(/^"[\w-]{22}"$/);
  });

  it.each([
    [undefined, false],
    ['"x"', false],
    ['*', true],
    ['TAG', true],
    ['W/TAG', true],
    ['"x", TAG', true],
  ] as const)('behavior: If-None-Match %s → not modified: %s', (header, expected) => {
    const tag = entityTagOf('texts');
    expect(isNotModified(header?.replace('TAG', tag), tag)).toBe(expected);
  });
});

describeWithDatabases('locale files are revalidated, not downloaded again', (ctx) => {
  let site: StaticSite;
  beforeAll(async () => {
    site = await createStaticSite('md-locale-etag-', { spa: { 'index.html': '<!doctype html><div id="root"></div>' }, locales: { 'en/common.json': bigLocale }, beside: {} });
  });
  afterAll(async () => {
    await site.remove();
  });

  it('behavior: a second request with If-None-Match is 304 with no body; a changed file gets a new ETag and a 200', async () => {
    const app = await ctx.app({ spaDir: site.spaDir, localesDir: site.localesDir });
    const get = (headers: Record<string, string>) => app.inject({ method: 'GET', url: '/locales/en/common.json', headers: { 'accept-encoding': 'br, gzip', ...headers } });

    const first = await get({});
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers['content-encoding']).toBe('br');
    const tag = String(first.headers.etag);
    expect(tag).toBe(entityTagOf(bigLocale));

    const again = await get({ 'if-none-match': tag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers['content-encoding']).toBeUndefined();
    expect(again.headers.etag).toBe(tag);
    expect(again.headers['cache-control']).toBe('no-cache');

    const changed = JSON.stringify({ layout: { appName: 'Member DApp 2' } });
    await writeFile(path.join(site.localesDir, 'en', 'common.json'), changed);
    const afterChange = await get({ 'if-none-match': tag });
    expect(afterChange.statusCode).toBe(200);
    expect(afterChange.headers.etag).toBe(entityTagOf(changed));
    expect(afterChange.headers.etag).not.toBe(tag);
    expect(afterChange.json()).toEqual(JSON.parse(changed));
  });

  it('behavior: a missing file is still the 4004 envelope, whatever If-None-Match says', async () => {
    const app = await ctx.app({ spaDir: site.spaDir, localesDir: site.localesDir });
    const response = await app.inject({ method: 'GET', url: '/locales/en/missing.json', headers: { 'if-none-match': '*' } });
    expect(response.statusCode).toBe(404);
  });
});
