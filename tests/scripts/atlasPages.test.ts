/**
 * The atlas' machine pages: every state and transition is drawn and is a link, nested states fold into
 * their own diagram, a transition of the machine itself starts from "any state", never from a state named after the
 * machine, and the happy path is drawn apart from the error paths.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { atlasEntries, readMachine } from '../../scripts/atlas/model';
import type { AtlasMachine } from '../../scripts/atlas/model';
import { renderMachinePage } from '../../scripts/atlas/render';
import type { CommonTexts, RenderContext } from '../../scripts/atlas/render';
import { screenOf } from '../../scripts/atlas/screens';
import { atlasTexts } from '../../scripts/machineGraph/texts';

const ctx: RenderContext = {
  lng: 'en',
  texts: atlasTexts('en'),
  otherTexts: atlasTexts('zh'),
  common: JSON.parse(readFileSync('locales/en/common.json', 'utf8')) as CommonTexts,
  decisions: new Map([['0008-session-address', '0008 A session keeps its address']]),
  screenOf,
  shotAfter: () => null,
  journeys: [],
};

async function pageOf(name: string): Promise<{ machine: AtlasMachine; html: string }> {
  const entry = atlasEntries().find((e) => e.name === name);
  if (!entry) throw new Error(`no machine ${name}`);
  const machine = await readMachine(entry);
  return { machine, html: await renderMachinePage(ctx, machine) };
}

const attributeValues = (html: string, pattern: RegExp) => new Set([...html.matchAll(pattern)].flatMap((match) => (match[1] ?? '').split(' ')));

describe('an atlas machine page', () => {
  let auth: { machine: AtlasMachine; html: string };
  let wallet: { machine: AtlasMachine; html: string };
  // ELK lays out the wallet's 61 transitions in about 2 s alone, several times that on CI's two busy cores.
  beforeAll(async () => {
    // One after the other: the path walker's actors are one registry.
    auth = await pageOf('auth');
    wallet = await pageOf('wallet');
  }, 60_000);

  it('draws every transition as an edge and every state as a node, each a link to its section', () => {
    const drawn = attributeValues(auth.html, /<g class="edge (?:happy|error)" data-t="([^"]*)"/g);
    const nodes = attributeValues(auth.html, /<g class="node [a-z]+" data-s="([^"]*)"/g);
    expect(auth.machine.transitions.filter((t) => !drawn.has(t.id)).map((t) => t.id)).toEqual([]);
    expect(auth.machine.states.filter((s) => s.parent !== null && !nodes.has(s.id)).map((s) => s.id)).toEqual([]);
    for (const t of auth.machine.transitions) expect(auth.html).toContain(`<section class="transition ${t.happy ? 'happy' : 'error'}" id="${t.id}"`);
    for (const s of auth.machine.states.filter((state) => state.parent !== null)) expect(auth.html).toContain(`href="#s-${s.id}"`);
  });

  it('folds nested states into a diagram of their own', () => {
    expect(auth.html).toMatch(/<details class="nested"><summary>Inside: Signing in<\/summary><div class="figure"><svg/);
  });

  it('starts a transition of the machine itself from "any state", not from a state named after the machine', () => {
    expect(auth.html).toContain('<g class="node any" data-s="">');
    expect(auth.html).not.toContain('href="#s-auth"><g');
  });

  it('draws the happy path apart from errors, refusals and timeouts', () => {
    const kindOf = (label: string, source: string) => auth.machine.transitions.find((t) => t.label === label && t.source === source)?.happy;
    expect(kindOf('done verifySignature', 'auth.signingIn.verifying')).toBe(true);
    expect(kindOf('error signMessage', 'auth.signingIn.signingMessage')).toBe(false);
    expect(kindOf('after signatureTimeout', 'auth.signingIn.signingMessage')).toBe(false);
    expect(auth.html).toContain('<g class="edge happy"');
    expect(auth.html).toContain('<g class="edge error"');
  });

  it('links only to sections the page has', () => {
    for (const { html } of [auth, wallet]) {
      const ids = new Set([...html.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]));
      const targets = [...new Set([...html.matchAll(/href="#([^"]+)"/g)].map((match) => match[1] ?? ''))];
      expect(targets.filter((target) => !ids.has(target))).toEqual([]);
    }
  });
});
