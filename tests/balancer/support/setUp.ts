/**
 * What the multi-process runs (tests/balancer/support/threeInstancesRun.ts, tests/failover/support/failoverRun.ts) do
 * before their load and after it: the operator funds the pools and the exchange and grants the members their credit and
 * WPOS, and at the end approves what is pending and waits until the payer has settled every withdrawal on chain.
 */
import { z } from 'zod';
import type { Db } from '../../../server/db/client';
import { TEST_TREASURY_ADDRESS } from '../../support/treasury';
import { withdrawals, type Withdrawal } from './books';
import { newRequestId, type Client, type Member } from './balancerClient';
import { recommenderOf } from './load';
import type { TestNode } from './processes';

/**
 * The settings of a compiled server in these runs, as production runs it (NODE_ENV=production, behind the balancer).
 *
 * @param databaseUrl - DATABASE_URL
 * @param node - the run's chain, token, treasury and hot wallet
 * @param balancerPort - where the balancer listens (PUBLIC_URL)
 * @returns the environment, PORT aside (startInstance sets it)
 * @example
 * const env = { ...serverEnv(databaseUrl, node, balancerPort), SHUTDOWN_DRAIN_MS: '3000' };
 */
export function serverEnv(databaseUrl: string, node: TestNode, balancerPort: number): Record<string, string> {
  return {
    NODE_ENV: 'production',
    // The demo's content: the run signs up below DEMO2026 and buys the seeded goods (production seeds minimal).
    SEED: 'demo',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    CHAIN_RPC_URL: node.url,
    TOKEN_ADDRESS: node.token,
    TREASURY_ADDRESS: node.treasury,
    PAYER_KEY: node.payerKey,
    CONFIRMATIONS: '2',
    CHAIN_POLL_MS: '250',
    // Withdrawals of a member's first 60 a day are approved on request; the rest wait for the operator.
    AUTO_APPROVE_MAX: '60',
    // The run's operator: the first admin, who signs in over HTTP and makes a finance key (Client.signInTreasury).
    OPS_FIRST_ADMIN: TEST_TREASURY_ADDRESS,
    // Its grants and fundings are the run's set-up: the operators' policy out of their way (one act alone up to
    // 100,000, and the 24-hour totals); the load's approvals stay far below it.
    APPROVAL_QUORUM_ABOVE: '100000',
    OPS_OPERATOR_DAY_TOTAL: '1000000000',
    OPS_MEMBER_DAY_TOTAL: '1000000000',
    TRUST_PROXY: '1',
    PUBLIC_URL: `http://127.0.0.1:${balancerPort}`,
    LOG_LEVEL: 'warn',
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The treasury signs in, funds the accounts that pay only what was put in, and `count` members sign in (the first
 * with the seeded invite code, each next one invited by its recommender) with a delivery address and a grant each.
 *
 * @param client - the balancer's client
 * @param count - how many members
 * @returns the chain id dappParam names and the members
 * @example
 * const { chainId, members } = await membersWithMoney(client, 8);
 */
export async function membersWithMoney(client: Client, count: number): Promise<{ chainId: number; members: (Member & { deliveryId: string })[] }> {
  const param = await client.must({ kind: 'dappParam', method: 'GET', url: '/api/dapp/dappParam', auth: {} }, z.object({ chainId: z.number() }));
  await client.signInTreasury();
  // The pools pay, and WPOS exchanges back to CREDIT, only from what finance funded.
  for (const account of ['sharePools', 'exchangeCredit']) {
    await client.must(client.admin('fund', '/api/admin/fund', { account, amount: '20000', requestId: newRequestId() }), z.object({ balance: z.string() }));
  }
  // One at a time (the sign-in limit, 10 a minute per client address, holds across the instances: all come from here).
  const signedIn: Member[] = [];
  for (let index = 0; index < count; index++) signedIn.push(await client.signIn(param.chainId, index === 0 ? 'DEMO2026' : (signedIn[recommenderOf(index)]?.inviteCode ?? '')));
  const home = { name: '李雷', phone: '138 0013 8000', region: '浙江省 / 杭州市 / 西湖区', detail: '文三路 100 号', isDefault: true };
  const members = await Promise.all(
    signedIn.map(async (member, index) => {
      const { deliveryId } = await client.must({ kind: 'address', method: 'POST', url: '/api/member/delivery/add', auth: { authorization: member.auth }, body: home, member: index }, z.object({ deliveryId: z.string() }));
      for (const [asset, amount] of [['CREDIT', '10000'], ['WPOS', '1000']]) {
        await client.must({ ...client.admin('grant', '/api/admin/grant', { address: member.address, asset, amount, requestId: newRequestId() }), member: index }, z.object({ id: z.string() }));
      }
      return { ...member, deliveryId };
    }),
  );
  return { chainId: param.chainId, members };
}

/**
 * The operator approves every pending withdrawal; then waits (two minutes at most) until each is done or failed.
 *
 * @param client - the balancer's client
 * @param db - the database, read directly
 * @param problems - where a withdrawal left unsettled is said
 * @returns every withdrawal as it is then
 * @example
 * const all = await approveAndSettle(client, database.db, problems);
 */
export async function approveAndSettle(client: Client, db: Db, problems: string[]): Promise<Withdrawal[]> {
  for (const withdrawal of (await withdrawals(db)).filter((row) => row.status === 'pending')) {
    await client.must(client.admin('decide', '/api/admin/withdrawal/decide', { id: withdrawal.id, status: 'approved' }), z.object({ status: z.string() }));
  }
  const paidBy = Date.now() + 120_000;
  for (;;) {
    const all = await withdrawals(db);
    if (all.every((row) => row.status === 'done' || row.status === 'failed')) return all;
    if (Date.now() > paidBy) {
      problems.push(`withdrawals not settled on chain: ${all.filter((row) => row.status !== 'done' && row.status !== 'failed').map((row) => `${row.id} ${row.status}`).join(', ')}`);
      return all;
    }
    await sleep(250);
  }
}
