/**
 * The operators' desk is its own page: /ops and every path under it get ops.html, which loads
 * the desk's bundle; every other page still gets the member app's index.html, so members never load the desk.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithDatabases } from './support/harness';
import { createStaticSite, type StaticSite } from './support/staticSite';

const memberPage = '<!doctype html><html><head><title>Member DApp</title></head><body><script src="/assets/index-a1.js"></script></body></html>';
const deskPage = '<!doctype html><html><head><title>Desk</title></head><body><script src="/assets/ops-b2.js"></script></body></html>';

describeWithDatabases('the operators\' desk page', (ctx) => {
  let site: StaticSite;
  let memberOnly: StaticSite;

  beforeAll(async () => {
    site = await createStaticSite('md-ops-desk-', { spa: { 'index.html': memberPage, 'ops.html': deskPage }, locales: {}, beside: {} });
    memberOnly = await createStaticSite('md-ops-none-', { spa: { 'index.html': memberPage }, locales: {}, beside: {} });
  });

  afterAll(async () => {
    await site.remove();
    await memberOnly.remove();
  });

  const get = async (spaDir: string, url: string) => {
    const app = await ctx.app({ spaDir, localesDir: site.localesDir });
    return app.inject({ method: 'GET', url });
  };

  it.each(['/ops', '/ops/', '/ops/withdrawals', '/ops/members?q=DEMO2026'])('behavior: %s is the desk', async (url) => {
    const response = await get(site.spaDir, url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('/assets/ops-b2.js');
  });

  it.each(['/', '/home', '/operations', '/opsx', '/me/ops'])('behavior: %s is the member app, never the desk', async (url) => {
    const response = await get(site.spaDir, url);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('/assets/index-a1.js');
    expect(response.body).not.toContain('ops-b2');
  });

  it('behavior: a build without the desk serves the member app at /ops', async () => {
    const response = await get(memberOnly.spaDir, '/ops/withdrawals');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('/assets/index-a1.js');
  });
});
