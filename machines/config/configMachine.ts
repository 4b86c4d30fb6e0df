/**
 * App config (spec sections 4 and 8): dappParam is fetched at start, kept, and persisted in DAPP_PARAM. The value
 * stored last time (absent → {}) is the starting point, so the app has a chain to ask for before the server
 * answers; it is checked against the contract first (restoring), because storage may hold anything. A failed fetch
 * leaves null as the fetched value (spec: "returns nothing"); the member can retry.
 */
import { assign, fromPromise, setup } from 'xstate';
import { notProvided } from '../shared/errorInfo';
import type { ErrorInfo } from '../shared/errorInfo';
import type { Answer } from '../shared/answer';

/** App config as the server sends it; the machine only needs to know it is an object. */
export type DappParamRecord = Record<string, unknown>;

export interface ConfigContext {
  /** The last fetched config, else the checked stored one ({} when none), null after a failed fetch. */
  dappParam: DappParamRecord | null;
  error: ErrorInfo | null;
}

export type ConfigEvent = { type: 'user.retry' } | { type: 'app.refresh' };

/**
 * Builds the config machine. The app builds it as it starts its actors (src/actors/configActors.ts), not when this
 * module loads; `configMachine` below is the same definition for tests, diagrams and types. Marked free of side
 * effects, so a bundle that never reads `configMachine` drops it: building machines was about a third of the entry
 * script's evaluation, one task of a phone's start-up (Lighthouse's Total Blocking Time).
 */
// @__NO_SIDE_EFFECTS__
export function createConfigMachine() {
  return setup({
    types: {
      context: {} as ConfigContext,
      events: {} as ConfigEvent,
    },
    actors: {
      /** Resolves to the stored config when it passes the contract's check, else to {}. */
      readStoredDappParam: fromPromise<DappParamRecord>(async () => notProvided('config', 'readStoredDappParam')),
      /** Resolves to the config, or null when the fetch failed (spec: a failed app-config fetch returns null). */
      fetchDappParam: fromPromise<Answer<DappParamRecord>>(async () => notProvided('config', 'fetchDappParam')),
    },
    actions: {
      assignDappParam: assign((_, params: { dappParam: DappParamRecord }) => ({ dappParam: params.dappParam, error: null })),
      assignFailure: assign((_, params: { code: number }) => ({ dappParam: null, error: { name: 'ApiError', code: params.code } })),
      storeDappParam: () => {
        // Provided by the app: persists the context's dappParam in DAPP_PARAM.
      },
    },
    guards: {
      hasDappParam: (_, params: { result: DappParamRecord | null }) => params.result !== null,
    },
  }).createMachine({
    id: 'config',
    context: { dappParam: {}, error: null },
    initial: 'restoring',
    states: {
      restoring: {
        description: 'config.restoring',
        invoke: {
          id: 'readStoredDappParam',
          src: 'readStoredDappParam',
          onDone: { target: 'loading', actions: { type: 'assignDappParam', params: ({ event }) => ({ dappParam: event.output }) } },
          onError: { target: 'loading' },
        },
      },
      loading: {
        description: 'config.loading',
        invoke: {
          id: 'fetchDappParam',
          src: 'fetchDappParam',
          onDone: [
            {
              guard: { type: 'hasDappParam', params: ({ event }) => ({ result: event.output.result }) },
              target: 'loaded',
              actions: [{ type: 'assignDappParam', params: ({ event }) => ({ dappParam: event.output.result ?? {} }) }, 'storeDappParam'],
            },
            { target: 'failed', actions: { type: 'assignFailure', params: ({ event }) => ({ code: event.output.code }) } },
          ],
        },
      },
      loaded: {
        description: 'config.loaded',
        on: { 'app.refresh': 'loading' },
      },
      failed: {
        description: 'config.failed',
        on: { 'user.retry': 'loading' },
      },
    },
  });
}

export const configMachine = createConfigMachine();

export type ConfigMachine = typeof configMachine;
