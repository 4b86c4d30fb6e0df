/**
 * The auth machine's generated paths, replayed through the rendered sign-in pages (docs/architecture.md, "Model-based
 * tests"): signing in on /login, binding a recommender on /register, and the member area they lead to. Each path
 * event is a click or typing, an answer of the fake API, the fake wallet's answer to the signature prompt, a wallet
 * event, or a clock step (tests/ui/support/authUiSteps.ts). After each step the app's auth actor must be in the path's
 * state, agree with the path's context, and the page must show what that state means to the member.
 */
import { describe, expect, it } from 'vitest';
import { authModels } from '../../scripts/machineGraph/auth.model';
import type { MachineModel } from '../../scripts/machineGraph/modelPaths';
import { renderApp } from './support/renderApp';
import { authRenderOptions, expectAuthStep, mapAuthStep, performAuthAction, waitForConnectedWallet } from './support/authUiSteps';
import { describeUiPath, initialStep, mapPath, planUiPaths, recordTransitions } from './support/uiPathPlan';
import type { UiPathPlan } from './support/uiPathPlan';

/** Auth transitions the pages must keep walking; raise it when the pages learn to produce more. */
const uiCoverageFloor = 36;

// Fresh start first; the restored sessions only add what the fresh start cannot reach.
const plans: UiPathPlan[] = [];
const covered = new Set<string>();
for (const model of authModels) {
  const plan = await planUiPaths(model, mapAuthStep, { covered });
  for (const key of plan.planned.keys()) covered.add(key);
  plans.push(plan);
}
const transitions = plans[0]?.transitions ?? [];
const walkedInUi = new Set<string>();

async function replay(model: MachineModel, path: UiPathPlan['paths'][number]): Promise<void> {
  const actions = mapPath(model, path, mapAuthStep);
  if ('reason' in actions) throw new Error(`not drivable: ${actions.reason}`);
  const app = await renderApp(authRenderOptions(model, path));
  const taken = new Set<string>();
  const stopRecording = recordTransitions(app.actors.auth, taken);
  try {
    await waitForConnectedWallet(app);
    // The session restore runs while the root actors start, before recording can begin: check it by its effect.
    const start = initialStep(model);
    await expectAuthStep(app, start.step);
    for (const key of start.taken) taken.add(key);
    for (const [index, step] of path.steps.entries()) {
      const action = actions[index];
      if (!action) throw new Error(`no action for step ${index + 1}`);
      await performAuthAction(app, action);
      await expectAuthStep(app, step);
    }
  } finally {
    stopRecording();
  }
  for (const key of taken) walkedInUi.add(key);
}

describe('/login and /register: auth machine paths through the rendered pages', () => {
  for (const plan of plans) {
    describe(plan.model.name, () => {
      it.each(plan.paths.map((path) => [describeUiPath(path), path] as const))('%s', (_, path) => replay(plan.model, path));
    });
  }

  it(`walks ${covered.size} of the ${transitions.length} auth transitions through the pages`, () => {
    const notWalked = transitions.filter((transition) => !walkedInUi.has(transition.key)).map((transition) => transition.key);
    expect(walkedInUi.size).toBeGreaterThanOrEqual(uiCoverageFloor);
    expect(new Set(walkedInUi)).toEqual(covered);
    expect(notWalked).toEqual(transitions.filter((transition) => !covered.has(transition.key)).map((transition) => transition.key));
  });

  it('leaves out only transitions whose event no member, wallet or server can produce on the pages', () => {
    const notDrivable = transitions
      .filter((transition) => !covered.has(transition.key))
      .map((transition) => ({
        key: transition.key,
        reason: plans.map((plan) => plan.notDrivable.find((entry) => entry.key === transition.key)?.reason).find(Boolean),
      }));
    const moneyMoved = 'app.refreshProfile: sent by the withdrawal sheet when money moved, not by the sign-in pages (tests/ui/withdraw.uiPaths.test.tsx drives it)';
    expect(notDrivable).toEqual([
      { key: 'auth.signedIn.loadingProfile|app.refreshProfile|0', reason: moneyMoved },
      {
        key: 'auth.signedIn.loadingProfile|xstate.done.actor.loadUserInfo|1',
        reason: 'xstate.done.actor.loadUserInfo: the API client reports 1002 as server.tokenExpired before the answer reaches loadUserInfo',
      },
      { key: 'auth.signedIn.profileFailed|app.refreshProfile|0', reason: moneyMoved },
      { key: 'auth.signedIn.ready|app.refreshProfile|0', reason: moneyMoved },
      {
        key: 'auth.signingOut|xstate.error.actor.revokeToken|0',
        reason: 'xstate.error.actor.revokeToken: the API client never rejects: a failed logout is an answer with a code',
      },
    ]);
  });
});
