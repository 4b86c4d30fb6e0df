/**
 * The wallet machine's generated paths, replayed through the rendered /login page (docs/architecture.md, "Model-based
 * tests"): each path event is a click, a fake-wallet answer, a provider event, a discovery result or a clock step
 * (tests/ui/support/walletUiSteps.ts), and after each step the app's wallet actor must be in the path's state with the
 * path's context while the page shows what that state means to the member.
 */
import { describe, expect, it } from 'vitest';
import { walletModel } from '../../scripts/machineGraph/wallet.model';
import { renderApp } from './support/renderApp';
import { describeUiPath, mapPath, planUiPaths, recordTransitions } from './support/uiPathPlan';
import { expectWalletStep, mapWalletStep, performWalletAction, walletRenderOptions } from './support/walletUiSteps';

/** Wallet transitions the page must keep walking; raise it when the page learns to produce more. */
const uiCoverageFloor = 60;

const plan = await planUiPaths(walletModel, mapWalletStep);
const walkedInUi = new Set<string>();
const eagerConnect = plan.transitions.find((transition) => transition.source === 'wallet.idle' && transition.event === 'app.connectEagerly');

describe('/login: wallet machine paths through the rendered page', () => {
  it.each(plan.paths.map((path) => [describeUiPath(path), path] as const))('%s', async (_, path) => {
    const actions = mapPath(walletModel, path, mapWalletStep);
    if ('reason' in actions) throw new Error(`not drivable: ${actions.reason}`);
    const app = await renderApp(walletRenderOptions(path));
    const taken = new Set<string>();
    const stopRecording = recordTransitions(app.actors.wallet, taken);
    // The eager connect is sent while the root actors start, before recording can begin: check it by its effect.
    if (path.steps[0]?.event.type === 'app.connectEagerly' && app.actors.wallet.getSnapshot().context.mode === 'eager' && eagerConnect) {
      taken.add(eagerConnect.key);
    }
    try {
      for (const [index, step] of path.steps.entries()) {
        const action = actions[index];
        if (!action) throw new Error(`no action for step ${index + 1}`);
        await performWalletAction(app, action);
        await expectWalletStep(app, step);
      }
    } finally {
      stopRecording();
    }
    for (const key of taken) walkedInUi.add(key);
  });

  it(`walks ${plan.planned.size} of the ${plan.transitions.length} wallet transitions through the page`, () => {
    const notWalked = plan.transitions.filter((transition) => !walkedInUi.has(transition.key)).map((transition) => transition.key);
    expect(walkedInUi.size).toBeGreaterThanOrEqual(uiCoverageFloor);
    expect(new Set(walkedInUi)).toEqual(new Set(plan.planned.keys()));
    expect(notWalked).toEqual(plan.notDrivable.map((entry) => entry.key));
  });

  it('leaves out only transitions whose event no member, wallet or server can produce on the page', () => {
    expect(plan.notDrivable).toEqual([
      {
        key: 'wallet.switchingChain|xstate.error.actor.switchChain|2',
        reason: 'user.connect: the page always asks for chain 56 with the chain params of dappParam',
      },
    ]);
  });
});
