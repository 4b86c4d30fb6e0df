/**
 * The atlas check (npm run atlas:check): it fails when a state or transition lacks its zh or en text, a
 * text has no state or transition, a state has no screen listed, or a screenshot is missing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { atlasProblems } from '../../scripts/atlas/check';
import { atlasEntries, readMachine } from '../../scripts/atlas/model';
import type { AtlasMachine } from '../../scripts/atlas/model';
import { atlasTexts } from '../../scripts/machineGraph/texts';
import { pathFromEvents } from '../../scripts/machineGraph/modelPaths';
import { copyModel } from '../../scripts/machineGraph/copy.model';

let copy: AtlasMachine;
const screens = {
  'copy.idle': { shot: 'invitation', own: true },
  'copy.copying': { shot: 'invitation', own: false },
  'copy.copied': { shot: 'invitation', own: false },
  'copy.failed': { shot: 'invitation', own: false },
};
const shots = new Set(['invitation.zh.webp', 'invitation.en.webp']);

/** The real texts of the copy machine only (the others' texts would count as texts without a state here). */
function copyTexts(lng: 'zh' | 'en'): Record<string, string> {
  return Object.fromEntries(Object.entries(atlasTexts(lng)).filter(([key]) => /^(copy[.:]|machine\.copy\.|ui\.|code\.|group\.|journey\.)/.test(key)));
}

beforeAll(async () => {
  const entry = atlasEntries().find((e) => e.name === 'copy');
  if (!entry) throw new Error('no copy machine');
  copy = await readMachine(entry);
});

describe('the atlas check', () => {
  it('passes when every state and transition has its texts and every screen its screenshots', () => {
    expect(atlasProblems([copy], { texts: { zh: copyTexts('zh'), en: copyTexts('en') }, shots, screens, transitionScreens: {} })).toEqual([]);
  });

  it('fails on a state or transition without its zh text, naming it', () => {
    const zh = copyTexts('zh');
    delete zh['copy.copied'];
    delete zh['copy.copying:done.writeClipboard'];
    const problems = atlasProblems([copy], { texts: { zh, en: copyTexts('en') }, shots, screens, transitionScreens: {} });
    expect(problems).toEqual([
      'locales/zh/atlas.json has no text for "copy.copied" (state copy.copied)',
      'locales/zh/atlas.json has no text for "copy.copying:done.writeClipboard" (transition copy.copying done writeClipboard → copy.copied)',
    ]);
  });

  it('fails on an empty English text and on a text no state or transition has', () => {
    const en = { ...copyTexts('en'), 'copy.idle': ' ', 'copy.pasting': 'Pasting.' };
    const problems = atlasProblems([copy], { texts: { zh: copyTexts('zh'), en }, shots, screens, transitionScreens: {} });
    expect(problems).toEqual([
      'locales/en/atlas.json has no text for "copy.idle" (state copy.idle)',
      'locales/en/atlas.json has a text for "copy.pasting", which no state or transition of the machines has',
    ]);
  });

  it('fails on a missing screenshot and on a state without a screen', () => {
    const { 'copy.failed': _failed, ...withoutFailed } = screens;
    const problems = atlasProblems([copy], { texts: { zh: copyTexts('zh'), en: copyTexts('en') }, shots: new Set(['invitation.zh.webp']), screens: withoutFailed, transitionScreens: {} });
    expect(problems).toEqual([
      'state copy.failed has no screen in scripts/atlas/screens.ts (its own, or the one that shows it)',
      'docs/atlas/shots/invitation.en.webp is missing: run npm run atlas to take it',
    ]);
  });

  it('walks a named journey by its events, and refuses one the machine does not allow', () => {
    const copied = pathFromEvents(copyModel, [{ type: 'user.copy' }, { type: 'xstate.done.actor.writeClipboard' }]);
    expect(copied.steps.map((step) => step.value)).toEqual(['copying', 'copied']);
    expect(() => pathFromEvents(copyModel, [{ type: 'xstate.done.actor.writeClipboard' }])).toThrow(/cannot happen in "idle"/);
  });
});
