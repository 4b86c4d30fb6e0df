/**
 * The visual checks of tests/e2e/visual.{zh,en}.spec.ts, each returning one line per offender so a
 * failure says what to fix: waiting until a screen is settled, horizontal overflow, touch-target height, and
 * axe-core (serious and critical violations, colour contrast included).
 *
 * The in-page functions go to Chromium as source text: they use nothing from module scope, so each carries its own
 * copy of the small selector describer (a shared one would need eval in the page, which the app's CSP forbids).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, ImpactValue } from 'axe-core';
import type { BrowserContext, Page, Request } from 'playwright-core';

/** Minimum height of anything a member taps, in CSS px (WCAG 2.5.5 / Apple HIG 44 pt). */
export const minTouchTarget = 44;

/** What the member can tap or focus. */
export const interactiveSelector =
  'a, button, input, select, textarea, [role=button], [role=tab], [role=link], [tabindex]:not([tabindex="-1"])';

/**
 * A page is not settled while one of these is visible: the app's loading line and spinner, antd-mobile's
 * loading indicators and skeletons, anything aria-busy, a progress bar. Add the next library's here.
 */
export const busySelector = [
  '[aria-busy="true"]',
  '[role="progressbar"]',
  '.page-loading',
  '.spinner',
  '.adm-loading',
  '.adm-spin-loading',
  '.adm-dot-loading',
  '.adm-skeleton',
  '.adm-button-loading',
  '.adm-pull-to-refresh-head-content .adm-dot-loading',
].join(', ');

/** axe impacts that fail the check. */
export const failingImpacts: readonly string[] = ['serious', 'critical'];

/**
 * Counts the page's requests in flight, so a check can wait until the network has been quiet for a while (the
 * load-state 'networkidle' only covers the navigation, not the API calls a lazy route makes after it).
 */
export class NetworkWatch {
  private readonly inFlight = new Set<Request>();
  private lastActivity = Date.now();

  constructor(page: Page) {
    page.on('request', (request) => {
      this.inFlight.add(request);
      this.lastActivity = Date.now();
    });
    const done = (request: Request) => {
      this.inFlight.delete(request);
      this.lastActivity = Date.now();
    };
    page.on('requestfinished', done);
    page.on('requestfailed', done);
  }

  /**
   * Resolves once nothing was in flight for quietMs; returns the URLs still pending when timeoutMs ran out.
   *
   * @example const pending = await network.quiet(); // [] when the network went quiet
   */
  async quiet(quietMs = 500, timeoutMs = 10_000): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.inFlight.size === 0 && Date.now() - this.lastActivity >= quietMs) return [];
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return [...this.inFlight].map((request) => `${request.method()} ${request.url()}`);
  }
}

export interface SettleOptions {
  network: NetworkWatch;
  /** The language the page must show (<html lang>). */
  lng: string;
  /** The colour scheme the page must see through prefers-color-scheme. */
  colorScheme: 'light' | 'dark';
  /** Only the colour scheme changed on a settled page: nothing loads, so the network is not waited for. */
  schemeSwitchOnly?: boolean;
  timeoutMs?: number;
}

/**
 * Waits until the screen is what a member looks at: network quiet, fonts loaded, the app rendered, no loading
 * indicator (busySelector), no running finite animation. What did not settle in time comes back as lines
 * (the checks still run, on what is there).
 *
 * @example const problems = await settle(page, { network, lng: 'zh', colorScheme: 'dark' });
 */
export async function settle(page: Page, { network, lng, colorScheme, schemeSwitchOnly = false, timeoutMs = 10_000 }: SettleOptions): Promise<string[]> {
  const problems: string[] = [];
  // 300 ms: a chained request (a lazy chunk, then its texts, then its data) starts within a task of the last one's end.
  const pending = schemeSwitchOnly ? [] : await network.quiet(300, timeoutMs);
  if (pending.length > 0) problems.push(`network still busy after ${timeoutMs} ms: ${pending.join(', ')}`);
  try {
    await page.waitForFunction(
      (selector) => {
        const root = document.getElementById('root');
        if (!root || root.childElementCount === 0) return false;
        return ![...document.querySelectorAll(selector)].some((element) => element.checkVisibility({ visibilityProperty: true }));
      },
      busySelector,
      { timeout: timeoutMs },
    );
  } catch {
    const busy = await page.evaluate(
      (selector) =>
        [...document.querySelectorAll(selector)]
          .filter((element) => element.checkVisibility({ visibilityProperty: true }))
          .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} "${(element.textContent ?? '').trim().slice(0, 40)}"`),
      busySelector,
    );
    problems.push(busy.length > 0 ? `still loading after ${timeoutMs} ms: ${busy.join(', ')}` : `#root still empty after ${timeoutMs} ms`);
  }
  await page.evaluate(async () => {
    await document.fonts.ready;
  });
  try {
    // Finite animations (page transitions, antd-mobile's popups) must end; an infinite one is a spinner above.
    await page.waitForFunction(
      () => document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity),
      undefined,
      { timeout: 5_000 },
    );
  } catch {
    problems.push('animations still running after 5 s');
  }
  const late = schemeSwitchOnly ? [] : await network.quiet(150, timeoutMs);
  if (late.length > 0) problems.push(`network still busy after ${timeoutMs} ms: ${late.join(', ')}`);
  // Two frames: whatever the last response changed is laid out and painted.
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));

  const seen = await page.evaluate(() => ({
    lang: document.documentElement.lang,
    dark: window.matchMedia('(prefers-color-scheme: dark)').matches,
    fontsLoaded: document.fonts.status === 'loaded',
  }));
  if (!seen.lang.startsWith(lng)) problems.push(`<html lang="${seen.lang}">, expected ${lng}: the page is not in the language under test`);
  if (seen.dark !== (colorScheme === 'dark')) problems.push(`prefers-color-scheme: dark is ${String(seen.dark)} in the page, expected ${colorScheme}`);
  if (!seen.fontsLoaded) problems.push('document.fonts.status is not "loaded"');
  return problems;
}

interface OverflowFinding {
  scrollWidth: number;
  clientWidth: number;
  offenders: Array<{ selector: string; right: number; inside: number }>;
}

/**
 * (a) Nothing overflows horizontally: the document does not scroll sideways, and no visible element's right edge
 * is beyond the viewport (unless an ancestor inside the viewport clips it, e.g. a horizontally scrolling tab
 * list). Only the outermost offender of a subtree is listed, with how many of its descendants also overflow.
 *
 * @param viewportWidth - the context's viewport width; the smaller of it and clientWidth is the limit
 * @returns one line per offender; [] when nothing overflows
 * @example expect.soft(await checkOverflow(page, 375)).toEqual([]);
 */
export async function checkOverflow(page: Page, viewportWidth: number): Promise<string[]> {
  const finding = await page.evaluate((width): OverflowFinding => {
    const doc = document.documentElement;
    const limit = Math.min(doc.clientWidth, width) + 0.5;
    const describe = (element: Element): string => {
      const parts: string[] = [];
      let node: Element | null = element;
      while (node && node !== document.body && parts.length < 4) {
        let part = node.tagName.toLowerCase();
        const testId = node.getAttribute('data-testid');
        if (node.id) {
          parts.unshift(`${part}#${CSS.escape(node.id)}`);
          break;
        }
        if (testId) part += `[data-testid="${testId}"]`;
        const classes = [...node.classList].slice(0, 3);
        if (classes.length > 0) part += `.${classes.map((name) => CSS.escape(name)).join('.')}`;
        const parent: Element | null = node.parentElement;
        const tag = node.tagName;
        const same = parent ? [...parent.children].filter((child) => child.tagName === tag) : [];
        if (same.length > 1) part += `:nth-of-type(${same.indexOf(node) + 1})`;
        parts.unshift(part);
        node = parent;
      }
      return parts.join(' > ');
    };
    const clippedInside = (element: Element): boolean => {
      if (getComputedStyle(element).position === 'fixed') return false;
      for (let ancestor = element.parentElement; ancestor && ancestor !== document.body && ancestor !== doc; ancestor = ancestor.parentElement) {
        const style = getComputedStyle(ancestor);
        if (style.overflowX !== 'visible' && ancestor.getBoundingClientRect().right <= limit) return true;
        if (style.position === 'fixed') return false;
      }
      return false;
    };
    const overflowing = new Map<Element, number>();
    for (const element of document.body.querySelectorAll('*')) {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || rect.right <= limit) continue;
      if (!element.checkVisibility({ visibilityProperty: true })) continue;
      if (clippedInside(element)) continue;
      overflowing.set(element, rect.right);
    }
    const offenders: OverflowFinding['offenders'] = [];
    for (const [element, right] of overflowing) {
      let outer = true;
      for (let ancestor = element.parentElement; ancestor; ancestor = ancestor.parentElement) {
        if (overflowing.has(ancestor)) {
          outer = false;
          break;
        }
      }
      if (!outer) continue;
      const inside = [...overflowing.keys()].filter((other) => other !== element && element.contains(other)).length;
      offenders.push({ selector: describe(element), right: Math.round(right * 10) / 10, inside });
    }
    return { scrollWidth: doc.scrollWidth, clientWidth: doc.clientWidth, offenders };
  }, viewportWidth);
  const lines: string[] = [];
  if (finding.scrollWidth > finding.clientWidth) {
    lines.push(`document scrolls sideways: scrollWidth ${finding.scrollWidth} > clientWidth ${finding.clientWidth}`);
  }
  for (const offender of finding.offenders) {
    const inside = offender.inside > 0 ? ` (and ${offender.inside} element(s) inside it)` : '';
    lines.push(`${offender.selector}: right edge at ${offender.right} px > viewport ${viewportWidth} px${inside}`);
  }
  return lines;
}

interface TargetFinding {
  selector: string;
  name: string;
  height: number;
  width: number;
}

/**
 * (b) Every visible interactive element (interactiveSelector) is at least minTouchTarget CSS px tall, measured as
 * its bounding box.
 *
 * @returns one line per element that is too small: selector, accessible text, measured size
 * @example expect.soft(await checkTouchTargets(page)).toEqual([]);
 */
export async function checkTouchTargets(page: Page): Promise<string[]> {
  const findings = await page.evaluate(
    ({ selector, min }): TargetFinding[] => {
      const describe = (element: Element): string => {
        const parts: string[] = [];
        let node: Element | null = element;
        while (node && node !== document.body && parts.length < 3) {
          let part = node.tagName.toLowerCase();
          const testId = node.getAttribute('data-testid');
          if (node.id) {
            parts.unshift(`${part}#${CSS.escape(node.id)}`);
            break;
          }
          if (testId) part += `[data-testid="${testId}"]`;
          const classes = [...node.classList].slice(0, 3);
          if (classes.length > 0) part += `.${classes.map((name) => CSS.escape(name)).join('.')}`;
          const parent: Element | null = node.parentElement;
          const tag = node.tagName;
          const same = parent ? [...parent.children].filter((child) => child.tagName === tag) : [];
          if (same.length > 1) part += `:nth-of-type(${same.indexOf(node) + 1})`;
          parts.unshift(part);
          node = parent;
        }
        return parts.join(' > ');
      };
      const nameOf = (element: Element): string => {
        const label = element.getAttribute('aria-label');
        if (label) return `aria-label "${label}"`;
        const labels = element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement ? element.labels : null;
        const labelText = labels ? [...labels].map((item) => (item.textContent ?? '').trim()).join(' ') : '';
        if (labelText) return `label "${labelText}"`;
        const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
        if (text) return `"${text.slice(0, 60)}"`;
        const placeholder = element.getAttribute('placeholder');
        if (placeholder) return `placeholder "${placeholder}"`;
        return '(no text)';
      };
      const found: TargetFinding[] = [];
      for (const element of document.querySelectorAll(selector)) {
        const rect = element.getBoundingClientRect();
        if (rect.width === 0 || rect.height === 0) continue;
        if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
        if (rect.height >= min - 0.01) continue;
        found.push({ selector: describe(element), name: nameOf(element), height: Math.round(rect.height * 100) / 100, width: Math.round(rect.width * 100) / 100 });
      }
      return found;
    },
    { selector: interactiveSelector, min: minTouchTarget },
  );
  return findings.map((finding) => `${finding.selector} ${finding.name}: ${finding.height} px tall (${finding.width} px wide), needs ${minTouchTarget}`);
}

let axeSource: string | undefined;

/** axe-core's source, read once per worker. */
function axeCoreSource(): string {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return axeSource;
}

/**
 * Puts axe-core into every document the context opens, before the page's own scripts (it only defines `axe`).
 * Sent once and compiled from Chromium's cache on later documents: 0.1-0.2 s a document, against 0.7-1.1 s to send
 * and evaluate its 570 KB with page.evaluate after each load (measured on a busy two-core machine).
 *
 * @example await installAxe(context); ... await checkAxe(page);
 */
export async function installAxe(context: BrowserContext): Promise<void> {
  await context.addInitScript(axeCoreSource());
}

/** The rules whose outcome depends on colours: the only ones a colour-scheme switch can change on the same page. */
export const colourRules: readonly string[] = ['color-contrast', 'link-in-text-block'];

interface AxeFinding {
  id: string;
  impact: ImpactValue | undefined;
  help: string;
  nodes: Array<{ target: string[]; failureSummary: string | undefined }>;
}

/**
 * What decides every rule but the colour ones: the document's markup, and each element's box and visibility. Two
 * equal fingerprints of one page (before and after a colour-scheme switch) give those rules the same outcome.
 */
export function layoutFingerprint(page: Page): Promise<string> {
  return page.evaluate(() => {
    let hash = 0;
    const add = (text: string) => {
      for (let index = 0; index < text.length; index += 1) hash = (Math.imul(hash, 31) + text.charCodeAt(index)) | 0;
    };
    add(document.documentElement.outerHTML);
    for (const element of document.querySelectorAll('*')) {
      const rect = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      add(`${rect.x},${rect.y},${rect.width},${rect.height},${style.visibility},${style.display},${style.opacity}`);
    }
    return String(hash);
  });
}

/**
 * (c) axe-core, run in the page itself: every violation of impact serious or critical, colour contrast included.
 *
 * axe-core comes from installAxe (or is put into the document here once) and runs there as often as asked (light,
 * then dark, on the same page). Hand-written in place of @axe-core/playwright, whose analyze() evaluated axe's
 * 570 KB source again on every call.
 *
 * @param rules - only these rules (e.g. colourRules after a colour-scheme switch that left the layout as it was)
 * @returns one line per violation and element: rule, impact, target, axe's failure summary
 * @example expect.soft(await checkAxe(page)).toEqual([]);
 */
export async function checkAxe(page: Page, rules?: readonly string[]): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeCoreSource());
  const violations = await page.evaluate(async (only): Promise<AxeFinding[]> => {
    const { axe } = window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } };
    const results = await axe.run(document, { resultTypes: ['violations'], ...(only ? { runOnly: { type: 'rule', values: only } } : {}) });
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? undefined,
      help: violation.help,
      nodes: violation.nodes.map((node) => ({ target: node.target.map(String), failureSummary: node.failureSummary })),
    }));
  }, rules ? [...rules] : null);
  const lines: string[] = [];
  for (const violation of violations) {
    if (!violation.impact || !failingImpacts.includes(violation.impact)) continue;
    for (const node of violation.nodes) {
      const summary = (node.failureSummary ?? violation.help).replace(/\s*\n\s*/g, ' ');
      lines.push(`${violation.id} [${violation.impact}] ${node.target.join(' ')}: ${summary}`);
    }
  }
  return lines;
}
