/**
 * What makes the atlas wrong: a state or transition without its zh or en text, a text that no
 * state or transition uses any more, a state without a screen listed in scripts/atlas/screens.ts (or a listed state
 * that no longer exists), and a screenshot missing in either language. Pure: the caller reads the files.
 */
import type { AtlasMachine } from './model';
import { usedTextKeys } from './model';
import { stateScreens, transitionScreens } from './screens';
import type { StateScreen } from './screens';
import type { AtlasLanguage } from '../machineGraph/texts';

export interface AtlasInputs {
  texts: Record<AtlasLanguage, Record<string, string>>;
  /** File names in docs/atlas/shots. */
  shots: ReadonlySet<string>;
  /** The screens tables (scripts/atlas/screens.ts); tests pass their own. */
  screens?: Readonly<Record<string, StateScreen>>;
  transitionScreens?: Readonly<Record<string, string>>;
}

/** Keys that name no state or transition: page words, code words, group titles, journey names, questions. */
const PAGE_KEY = /^(ui|code|group|journey|question)\./;

/**
 * Lists every problem, one line each; empty when the atlas can be built.
 *
 * @param machines - the machines as scripts/atlas/model.ts reads them
 * @param inputs - the texts of each language and the screenshots there are
 * @returns problems
 * @example
 * atlasProblems(await readAtlas(), { texts: { zh, en }, shots: new Set(['login.zh.webp']) });
 */
export function atlasProblems(machines: readonly AtlasMachine[], inputs: AtlasInputs): string[] {
  const problems: string[] = [];
  const used = usedTextKeys(machines);
  const names = new Set<string>();
  for (const machine of machines) {
    for (const state of machine.states) {
      if (state.parent === null) {
        names.add(`machine.${machine.name}.title`);
        names.add(`machine.${machine.name}.summary`);
      } else if (!state.textKey) {
        problems.push(`state ${state.id} has no description (a key into locales/<lng>/atlas.json)`);
      } else {
        names.add(`${state.textKey}#name`);
      }
    }
  }
  for (const [lng, texts] of Object.entries(inputs.texts)) {
    for (const [key, by] of used) {
      if (!texts[key]?.trim()) problems.push(`locales/${lng}/atlas.json has no text for "${key}" (${by.join('; ')})`);
    }
    for (const key of names) {
      if (!texts[key]?.trim()) problems.push(`locales/${lng}/atlas.json has no text for "${key}" (a state's or machine's name)`);
    }
    for (const key of Object.keys(texts)) {
      if (used.has(key) || names.has(key) || PAGE_KEY.test(key)) continue;
      problems.push(`locales/${lng}/atlas.json has a text for "${key}", which no state or transition of the machines has`);
    }
  }
  const screens = inputs.screens ?? stateScreens;
  const stateIds = new Set(machines.flatMap((machine) => machine.states.filter((state) => state.parent !== null).map((state) => state.id)));
  for (const id of stateIds) if (!(id in screens)) problems.push(`state ${id} has no screen in scripts/atlas/screens.ts (its own, or the one that shows it)`);
  for (const id of Object.keys(screens)) if (!stateIds.has(id)) problems.push(`scripts/atlas/screens.ts lists a state ${id} that no machine has`);
  const transitionKeys = new Set(machines.flatMap((machine) => machine.transitions.map((t) => t.textKey)));
  const afterTransitions = inputs.transitionScreens ?? transitionScreens;
  for (const key of Object.keys(afterTransitions)) if (!transitionKeys.has(key)) problems.push(`scripts/atlas/screens.ts shows a screen after a transition "${key}" that no machine has`);
  const langs = Object.keys(inputs.texts);
  const shots = [...new Set([...Object.values(screens).map((screen) => screen.shot), ...Object.values(afterTransitions)])].sort();
  for (const shot of shots) {
    for (const lng of langs) {
      if (!inputs.shots.has(`${shot}.${lng}.webp`)) problems.push(`docs/atlas/shots/${shot}.${lng}.webp is missing: run npm run atlas to take it`);
    }
  }
  return problems;
}
