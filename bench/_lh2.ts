import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startServer } from '../tests/e2e/support/server';
const server = await startServer();
const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: ['--headless=new', '--no-sandbox'] });
try {
  const r = await lighthouse(`${server.url}/login/DEMO2026`, { port: chrome.port, logLevel: 'error', onlyCategories: ['performance'] });
  const a = r!.lhr.audits;
  console.log(JSON.stringify(a['layout-shifts']?.details, null, 1).slice(0, 3000));
  console.log(JSON.stringify(a['largest-contentful-paint-element']?.details, null, 1).slice(0, 2500));
  console.log(JSON.stringify(a['network-requests']?.details && (a['network-requests'].details as any).items.map((i: any) => [i.url.slice(-50), i.transferSize, Math.round(i.networkRequestTime), Math.round(i.networkEndTime)]), null, 0));
} finally { await chrome.kill(); await server.stop(); }
