/**
 * Replays a money flow's generated paths (any instance of machines/shared/moneyFlow.ts) through its rendered sheet.
 * The skeleton's steps are the same for every flow, so they are driven and checked here once: Next, Change, the
 * confirmation (the model's request id from a stubbed crypto.randomUUID), Stop waiting, Try again and Check again
 * by role and name from the flow's text prefix, the held API call answered with the path's code, and the wait,
 * failure, interruption and sign-in after 1002 as the member sees them. A flow gives what is its own: how a field
 * is changed, what its form, summary and receipt show, and the body its call must carry.
 *
 * The sheet's actor lives inside the route, out of the test's reach, so the transitions walked through the UI are
 * those of the replayed paths, each step of which the page confirmed.
 */
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EndpointName } from '../../../api-schema/endpoints';
import type { MoneyFlowContext } from '../../../machines/shared/moneyFlow';
import type { MachineModel, ModelPath, PathStep } from '../../../scripts/machineGraph/modelPaths';
import { walkPath } from '../../../scripts/machineGraph/pathWalker';
import type { FakeApi } from '../../support/fakeApi';
import { renderApp } from './renderApp';
import type { RenderedApp } from './renderApp';
import { expectAlert, translated } from './screenQueries';
import { describeUiPath, initialStep, mapPath, planUiPaths } from './uiPathPlan';
import type { StepMapper } from './uiPathPlan';

type Translate = ReturnType<typeof translated>;
export type FlowContext = MoneyFlowContext<unknown, unknown>;

type FlowUiAction = { kind: 'change'; field: string; value: string } | { kind: 'click'; key: string } | { kind: 'answer'; code: number; result: unknown };

export interface MoneyFlowUiSpec {
  model: MachineModel;
  /** The sheet's URL, e.g. /me/wpos?sheet=transfer. */
  url: string;
  /** The flow's text prefix, e.g. wpos:transfer (its title is `${texts}.title`). */
  texts: string;
  endpoint: EndpointName;
  requestId: string;
  /** Session, stored values and the other calls' answers. */
  stored: Record<string, string>;
  api: (api: FakeApi) => void;
  /** Changes one field as a member would (types into it, taps a choice). */
  change: (app: RenderedApp, field: string, value: string, before: FlowContext) => Promise<void>;
  /** The body the flow's call must carry for this context (the request id aside). */
  body: (context: FlowContext) => Record<string, unknown>;
  /** What the form shows in this context (values, errors, Next enabled or not). */
  expectEditing: (t: Translate, context: FlowContext) => void;
  /** What the summary shows. */
  expectConfirming: (t: Translate, context: FlowContext) => void;
  /** What the receipt shows. */
  expectDone: (t: Translate, context: FlowContext) => void;
  /** Transitions the UI cannot drive, with the reason (the xstate.error case). */
  notDrivable: { key: string; reason: string }[];
}

const mapStep: StepMapper<FlowUiAction> = (step) => {
  const event = step.event as { type: string } & Record<string, unknown>;
  switch (event.type) {
    case 'field.change':
      return { kind: 'action', action: { kind: 'change', field: String(event.field), value: String(event.value) } };
    case 'user.submit':
      return { kind: 'action', action: { kind: 'click', key: 'next' } };
    case 'user.edit':
      return { kind: 'action', action: { kind: 'click', key: 'confirm.edit' } };
    case 'user.confirm':
      return { kind: 'action', action: { kind: 'click', key: 'confirm.submit' } };
    case 'user.cancel':
      return { kind: 'action', action: { kind: 'click', key: 'submitting.cancel' } };
    case 'user.retry':
      return { kind: 'action', action: { kind: 'click', key: 'retry' } };
    case 'xstate.done.actor.submit': {
      const output = event.output as { code: number; result: unknown };
      return { kind: 'action', action: { kind: 'answer', code: output.code, result: output.result } };
    }
    case 'xstate.error.actor.submit':
      return { kind: 'unmapped', reason: 'the API client never rejects: every failure is an answer with a code' };
    default:
      return { kind: 'unmapped', reason: `no UI for ${event.type}` };
  }
};

/**
 * Declares the path tests of one money flow's sheet: one test per drivable path, and one that the UI walked every
 * transition the plan promised.
 *
 * @param spec - the flow's model, sheet, call and its own expectations
 * @returns when declared
 * @example
 * await describeMoneyFlowUiPaths({ model: transferModel, url: '/me/wpos?sheet=transfer', texts: 'wpos:transfer', ... });
 */
export async function describeMoneyFlowUiPaths(spec: MoneyFlowUiSpec): Promise<void> {
  const plan = await planUiPaths(spec.model, mapStep);
  const walkedInUi = new Set<string>();
  const key = (name: string) => `${spec.texts}.${name}`;

  async function perform(app: RenderedApp, action: FlowUiAction, before: PathStep): Promise<void> {
    const t = translated(app);
    const context = before.context as FlowContext;
    switch (action.kind) {
      case 'change':
        return spec.change(app, action.field, action.value, context);
      case 'click': {
        const name = action.key === 'retry' ? (before.value === 'interrupted' ? 'interrupted.retry' : 'failed.retry') : action.key;
        await app.user.click(screen.getByRole('button', { name: t(key(name)) }));
        return;
      }
      case 'answer': {
        const call = await app.api.next(spec.endpoint);
        expect(call.body).toEqual({ ...spec.body(context), requestId: context.requestId });
        await act(async () => {
          if (action.code === -1) call.failNetwork();
          else call.answer(action.code === 0 ? { code: 0, result: action.result } : { code: action.code });
          await Promise.resolve();
        });
        return;
      }
    }
  }

  async function expectStep(app: RenderedApp, step: PathStep): Promise<void> {
    const t = translated(app);
    const context = step.context as FlowContext;
    const statuses = () => screen.getAllByRole('status').map((element) => element.textContent);
    await waitFor(() => {
      switch (step.value) {
        case 'editing':
          return spec.expectEditing(t, context);
        case 'confirming':
          screen.getByRole('button', { name: t(key('confirm.submit')) });
          return spec.expectConfirming(t, context);
        case 'submitting':
          expect(statuses()).toContain(t(key('submitting.message')));
          return;
        case 'interrupted':
          expect(statuses()).toContain(t(key('interrupted.message')));
          screen.getByRole('button', { name: t(key('interrupted.retry')) });
          return;
        case 'failed':
          expectAlert(t(context.error?.code === undefined ? 'common:Common.unknown' : `common:Common.${context.error.code}`));
          screen.getByRole('button', { name: t(key('failed.retry')) });
          return;
        case 'done':
          expect(statuses()).toContain(t(key('done.title')));
          return spec.expectDone(t, context);
        case 'sessionEnded':
          // The API client turned 1002 into server.tokenExpired: the member area goes to sign-in, sheet and all.
          expect(app.router.state.location.pathname).toBe('/login');
          return;
        default:
          throw new Error(`no expectation for ${JSON.stringify(step.value)}`);
      }
    });
  }

  async function replay(path: ModelPath): Promise<void> {
    const actions = mapPath(spec.model, path, mapStep);
    if ('reason' in actions) throw new Error(`not drivable: ${actions.reason}`);
    const app = await renderApp({
      path: spec.url,
      stored: spec.stored,
      api: (api) => {
        spec.api(api);
        api.hold(spec.endpoint);
      },
    });
    let previous = initialStep(spec.model).step;
    await screen.findByRole('dialog', { name: translated(app)(key('title')) });
    await expectStep(app, previous);
    for (const [index, step] of path.steps.entries()) {
      const action = actions[index];
      if (!action) throw new Error(`no action for step ${index + 1}`);
      await perform(app, action, previous);
      await expectStep(app, step);
      previous = step;
    }
    for (const walked of await walkPath(spec.model, path)) walkedInUi.add(walked);
  }

  describe(`${spec.url}: ${spec.model.name} machine paths through the rendered sheet`, () => {
    beforeEach(() => {
      vi.spyOn(crypto, 'randomUUID').mockReturnValue(spec.requestId as ReturnType<typeof crypto.randomUUID>);
    });
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it.each(plan.paths.map((path) => [describeUiPath(path), path] as const))('%s', (_, path) => replay(path));

    it(`walks ${plan.planned.size} of the ${plan.transitions.length} ${spec.model.name} transitions through the sheet`, () => {
      expect(new Set(walkedInUi)).toEqual(new Set(plan.planned.keys()));
      expect(plan.notDrivable).toEqual(spec.notDrivable);
    });
  });
}
