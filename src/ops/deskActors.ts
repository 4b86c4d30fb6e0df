/**
 * The desk's root actors: the wallet (the member app's wallet machine, with the same discovery and viem requests),
 * the app config (for the chain to connect to and its block explorer) and the desk's session, wired as the member
 * app wires its own (src/app/rootActors.ts): the wallet's account reaches the session, and a 1002 answer to any
 * desk call ends it. The session is an HttpOnly cookie the page never sees; its CSRF token lives in the session's
 * memory only, so the desk stores nothing of it.
 */
import { createActor, fromPromise } from 'xstate';
import type { ActorOptions, ActorRefFrom, AnyActorLogic } from 'xstate';
import type { Address } from 'viem';
import { createConfigMachine } from '../../machines/config/configMachine';
import type { DappParamRecord } from '../../machines/config/configMachine';
import { createOpsSessionMachine, OPS_SIGN_IN_STATEMENT } from '../../machines/ops/opsSessionMachine';
import type { OpsNonce, OpsSession, OpsSignedMessage, OpsSignInResult } from '../../machines/ops/opsSessionMachine';
import type { Answer } from '../../machines/shared/answer';
import { provideBuilt } from '../../machines/shared/provideBuilt';
import { provideWalletMachine } from '../actors/walletActors';
import type { DiscoveredProvider } from '../wallet/types';
import { createOpsClient } from './api/opsClient';
import type { OpsClient } from './api/opsClient';
import { forgetStoredDeskSession } from './deskStorage';
import type { DeskStorage } from './deskStorage';

export interface DeskActors {
  api: OpsClient;
  wallet: ActorRefFrom<ReturnType<typeof provideWalletMachine>['machine']>;
  config: ActorRefFrom<ReturnType<typeof createConfigMachine>>;
  session: ActorRefFrom<ReturnType<typeof createOpsSessionMachine>>;
  stop: () => void;
}

export interface CreateDeskActorsParameters {
  /** Where earlier desks kept their session: cleared at start. */
  storage: DeskStorage;
  loadProviders: () => Promise<DiscoveredProvider[]>;
  watchProviders: (onFound: () => void) => () => void;
  /** The page's host and origin, named by the sign-in message (the server accepts only its own sites). */
  site: { domain: string; uri: string };
  fetchImpl?: typeof fetch;
  clock?: ActorOptions<AnyActorLogic>['clock'];
  connectEagerly?: boolean;
}

/**
 * Creates and starts the desk's actors.
 *
 * @example const actors = createDeskActors({ storage, loadProviders, watchProviders, site });
 */
export function createDeskActors({ storage, loadProviders, watchProviders, site, fetchImpl, clock, connectEagerly = true }: CreateDeskActorsParameters): DeskActors {
  const options = clock ? { clock } : {};
  const late: { session?: DeskActors['session'] } = {};
  forgetStoredDeskSession(storage);
  const api = createOpsClient({
    getCsrfToken: () => late.session?.getSnapshot().context.csrfToken ?? null,
    onSessionRejected: () => late.session?.send({ type: 'server.tokenExpired' }),
    ...(fetchImpl ? { fetchImpl } : {}),
  });
  const { machine: walletLogic, session: walletSession } = provideWalletMachine({ loadProviders, watchProviders });
  const wallet = createActor(walletLogic, options);
  const config = createActor(
    provideBuilt(createConfigMachine(), {
      actors: {
        // The desk always asks the server: it keeps no app config of its own between visits.
        readStoredDappParam: fromPromise<DappParamRecord>(async () => ({})),
        fetchDappParam: fromPromise<Answer<DappParamRecord>>(async () => {
          const answer = await api.call('dappParam');
          return { code: answer.code, result: answer.result as DappParamRecord | null };
        }),
      },
      actions: { storeDappParam: () => undefined },
    }),
    options,
  );
  const sessionLogic = provideBuilt(createOpsSessionMachine(), {
    actors: {
      fetchNonce: fromPromise<Answer<OpsNonce>, { address: string }>(({ input }) => api.call('opsLoginNonce', { query: { address: input.address } })),
      signMessage: fromPromise<OpsSignedMessage, { address: string; chainId: number; nonce: OpsNonce }>(async ({ input }) => {
        const { createSiweMessage } = await import('viem/siwe');
        const message = createSiweMessage({
          domain: site.domain,
          address: input.address as Address,
          statement: OPS_SIGN_IN_STATEMENT,
          uri: site.uri,
          version: '1',
          chainId: input.chainId,
          nonce: input.nonce.nonce,
          issuedAt: new Date(input.nonce.issuedAt),
          expirationTime: new Date(input.nonce.expirationTime),
        });
        const providerId = wallet.getSnapshot().context.providerId ?? '';
        const signature = await (await walletSession.requestsFor(providerId)).signMessage({ address: input.address as Address, message });
        return { message, signature };
      }),
      signIn: fromPromise<Answer<OpsSignInResult>, OpsSignedMessage>(({ input }) => api.call('opsSignIn', { body: input, csrfToken: null })),
      loadOperator: fromPromise<Answer<OpsSession>>(async () => {
        const answer = await api.call('opsMe', { csrfToken: null });
        const me = answer.result;
        return { code: answer.code, result: me ? { operator: { address: me.address ?? '', roles: me.roles }, csrfToken: me.csrfToken } : null };
      }),
      revokeToken: fromPromise<Answer<unknown>, { csrfToken: string | null }>(({ input }) => api.call('opsLogout', { body: {}, csrfToken: input.csrfToken })),
    },
  });
  const session = createActor(sessionLogic, options);
  late.session = session;

  let previousAccount: string | null = null;
  const subscription = wallet.subscribe((snapshot) => {
    const account = snapshot.context.accounts[0] ?? null;
    if (account === previousAccount) return;
    if (account) session.send({ type: 'wallet.accountChanged', address: account });
    else session.send({ type: 'wallet.disconnected' });
    previousAccount = account;
  });

  config.start();
  session.start();
  wallet.start();
  if (connectEagerly) wallet.send({ type: 'app.connectEagerly' });
  return {
    api,
    wallet,
    config,
    session,
    stop: () => {
      subscription.unsubscribe();
      wallet.stop();
      session.stop();
      config.stop();
    },
  };
}
