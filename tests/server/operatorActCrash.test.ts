/**
 * An operator's act and its audit row across kill -9 (docs/API.md, "Operators: the policy"): `server/main.ts` as
 * `npm start` runs it, on PGlite in a temp DATA_DIR and on PostgreSQL when the run has it. OPS_FAULT_AT=beforeAudit
 * makes the process kill itself (SIGKILL) inside a grant's transaction, its money written and its audit row not yet.
 * After the restart neither is there; the same request again moves the money once, with its one row.
 */
import { randomUUID } from 'node:crypto';
import { privateKeyToAccount } from 'viem/accounts';
import { expect } from 'vitest';
import { TEST_TREASURY_PRIVATE_KEY } from '../support/treasury';
import { signInOperatorOverHttp } from './support/httpSignIn';
import { apiCaller, describeOnEveryStorage, expectKilledDuring, mainStarter, prepareMainRun, signInOverHttp, treasuryHeadersOverHttp, type Cleanup, type MainStorage } from './support/mainProcess';

describeOnEveryStorage('an operator act across a kill -9', 'keeps an act and its audit row together: both or neither ($name)', 240_000, actAcrossKill);

async function actAcrossKill(storage: MainStorage, cleanup: Cleanup): Promise<void> {
  const { env, port } = await prepareMainRun(storage, cleanup);
  const { start } = mainStarter(cleanup);
  const base = `http://127.0.0.1:${port}`;
  const call = apiCaller(base);
  const first = await start({ ...env, OPS_FAULT_AT: 'beforeAudit' });
  expect(first.output()).toContain(storage.banner);
  const param = await call<{ chainId: number }>('/api/dapp/dappParam');
  const member = await signInOverHttp(base, param.chainId);
  // The treasury's key (keys/create writes its row by itself, not as a money act): the kill waits for the grant.
  const treasury = { ...(await treasuryHeadersOverHttp(base)), 'content-type': 'application/json' };
  const requestId = randomUUID();
  const body = JSON.stringify({ address: member.address, asset: 'CREDIT', amount: '250', requestId });
  await expectKilledDuring(first, fetch(`${base}/api/admin/grant`, { method: 'POST', headers: treasury, body }));

  await start(env);
  const treasuryAgain = { ...(await treasuryHeadersOverHttp(base)), 'content-type': 'application/json' };
  const balance = async () => (await call<{ creditBalance: string }>('/api/member/meInfo', { headers: { authorization: member.auth } })).creditBalance;
  // The treasury is this server's first admin (OPS_FIRST_ADMIN): its session reads the audit log.
  const admin = await signInOperatorOverHttp(base, privateKeyToAccount(TEST_TREASURY_PRIVATE_KEY));
  const grantRows = async () => (await call<{ list: { action: string; requestId: string | null }[] }>('/api/admin/audit?action=opsGrant', { headers: admin })).list;
  // Neither: no credit, no row.
  expect(await balance()).toBe('0');
  expect(await grantRows()).toEqual([]);
  // The same request runs afresh (nothing of it was kept), once, with its one row.
  const granted = await call<{ balanceAfter: string }>('/api/admin/grant', { method: 'POST', headers: treasuryAgain, body });
  expect(granted.balanceAfter).toBe('250');
  expect((await call<{ balanceAfter: string }>('/api/admin/grant', { method: 'POST', headers: treasuryAgain, body })).balanceAfter).toBe('250');
  expect(await balance()).toBe('250');
  expect((await grantRows()).map((row) => row.requestId)).toEqual([requestId]);
}
