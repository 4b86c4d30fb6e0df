import { chromium } from 'playwright-core';
import { startServer } from '../tests/e2e/support/server';
const server = await startServer();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
  await context.addInitScript(() => {
    (window as any).__shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as any[]) {
        (window as any).__shifts.push({ t: Math.round(entry.startTime), v: entry.value, sources: entry.sources.map((s: any) => ({ node: s.node?.nodeName + '#' + (s.node?.id ?? '') + '.' + (s.node?.className ?? ''), prev: JSON.stringify(s.previousRect), cur: JSON.stringify(s.currentRect) })) });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(`${server.url}/login/DEMO2026`);
  await page.waitForTimeout(5000);
  console.log(JSON.stringify(await page.evaluate(() => (window as any).__shifts), null, 1));
} finally { await browser.close(); await server.stop(); }
