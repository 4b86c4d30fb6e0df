/**
 * The operators' desk: signing in with the desk's own message and session cookie, the operator's
 * address and roles, screens hidden by role, and every screen's loading, empty, error-with-retry and loaded states.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OPS_SIGN_IN_STATEMENT } from '../../machines/ops/opsSessionMachine';
import { deskCsrfToken, financeAddress, renderDesk, seededMoneySettings } from './support/renderDesk';

const nonce = { nonce: 'Op5xv9Lm2Pz8Rt4W', issuedAt: '2026-11-27T10:00:00.000Z', expirationTime: '2026-11-27T10:05:00.000Z' };
const second = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65';
const member = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
// Typing into the forms takes seconds on a loaded 2-core runner: each test has 15 s (its assertions say what failed).

const withdrawal = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  address: member,
  amount: '2500',
  fee: '1',
  status: 'pending',
  createdAt: '2026-11-27T09:00:00.000Z',
  decidedAt: null,
  approvals: [],
  approvalsNeeded: 2,
  ...extra,
});

/** A page of a desk list as opsWithdrawals (and the other paged lists) answer it: the rows, the next page's cursor and how many match in all. */
const queuePage = (list: readonly unknown[], nextCursor: string | null = null, total = list.length) => ({ list, nextCursor, total });

const memberAnswer = {
  address: member,
  inviteCode: 'AB12CD34',
  recommender: null,
  createdAt: '2026-11-20T09:00:00.000Z',
  balances: { CREDIT: '120.5', WPOS: '3' },
  team: { direct: 2, total: 5 },
  sessions: 1,
  frozen: null,
  records: [{ id: '7', asset: 'CREDIT', type: 'withdraw', amount: '-2500', balanceAfter: '120.5', status: 'pending', createdAt: '2026-11-27T09:00:00.000Z' }],
};

describe('the desk: sign-in', { timeout: 15_000 }, () => {
  it('behavior: an operator connects, signs the desk\'s own message, and sees their address, roles and screens', async () => {
    const desk = await renderDesk({
      handlers: {
        'GET /api/admin/auth/nonce': () => ({ code: 0, result: nonce }),
        'POST /api/admin/auth/signIn': () => ({ code: 0, result: { expiresAt: '2026-11-27T22:00:00.000Z', operator: { address: financeAddress, roles: ['finance'] }, csrfToken: 'ops-csrf-new' } }),
        'GET /api/admin/withdrawals': () => ({ code: 0, result: queuePage([]) }),
      },
    });
    await desk.user.click(await screen.findByRole('button', { name: 'Connect wallet' }));
    // The first wallet request of the file loads viem on demand.
    await desk.user.click(await screen.findByRole('button', { name: 'Sign in to the desk' }, { timeout: 10_000 }));
    const navigation = await screen.findByRole('navigation', { name: "The desk's screens" });
    expect(within(navigation).getAllByRole('link').map((link) => link.textContent)).toEqual(['Overview', 'Withdrawals', 'Top-ups', 'Reconcile', 'Members', 'API keys']);
    expect(screen.getByText('Finance')).toBeTruthy();
    const signIn = desk.calls.find((call) => call.key === 'POST /api/admin/auth/signIn');
    expect((signIn?.body as { message: string }).message).toContain(`\n\n${OPS_SIGN_IN_STATEMENT}\n\n`);
    // The session is the cookie: the page stores nothing, not even what an earlier desk left.
    expect([...desk.store.keys()]).toEqual([]);
    // The desk opens on its overview.
    await waitFor(() => expect(desk.calls.some((call) => call.key === 'GET /api/admin/overview')).toBe(true));
    expect(desk.router.state.location.pathname).toBe('/ops/overview');
    expect(desk.calls.every((call) => call.authorization === null && call.credentials === 'same-origin')).toBe(true);
    expect(desk.calls.find((call) => call.key === 'GET /api/admin/overview')?.csrfToken).toBe('ops-csrf-new');
  }, 15_000);

  it('behavior: a refused address (1006) stays signed out and says why', async () => {
    const desk = await renderDesk({
      handlers: {
        'GET /api/admin/auth/nonce': () => ({ code: 0, result: nonce }),
        'POST /api/admin/auth/signIn': () => ({ code: 1006 }),
      },
    });
    await desk.user.click(await screen.findByRole('button', { name: 'Connect wallet' }));
    await desk.user.click(await screen.findByRole('button', { name: 'Sign in to the desk' }));
    expect(await screen.findByText('Your roles do not allow this, or this address is no operator.')).toBeTruthy();
    expect(desk.actors.session.getSnapshot().context.csrfToken).toBeNull();
   }, 15_000);

  it('behavior: at start the desk asks the server whether the browser holds a session, and opens on it', async () => {
    const desk = await renderDesk({ path: '/ops/keys', signedInAs: { roles: ['support'] }, handlers: { 'GET /api/admin/keys': () => ({ code: 0, result: { keys: [] } }) } });
    expect(await screen.findByRole('button', { name: 'Sign out' })).toBeTruthy();
    expect(desk.calls.some((call) => call.key === 'GET /api/admin/me' && call.csrfToken === null)).toBe(true);
    expect(desk.actors.session.getSnapshot().context.csrfToken).toBe(deskCsrfToken);
    expect(desk.store.has('OPS_TOKEN')).toBe(false);
  });

  it('behavior: a browser without a session opens on the sign-in, with no error', async () => {
    const desk = await renderDesk();
    expect(await screen.findByRole('button', { name: 'Connect wallet' })).toBeTruthy();
    expect(desk.actors.session.getSnapshot().context.error).toBeNull();
  });

  it('behavior: signing out forgets the desk\'s session and ends it on the server', async () => {
    const desk = await renderDesk({ path: '/ops/keys', signedInAs: { roles: ['support'] }, handlers: { 'GET /api/admin/keys': () => ({ code: 0, result: { keys: [] } }) } });
    await desk.user.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('button', { name: 'Connect wallet' })).toBeTruthy();
    expect(desk.actors.session.getSnapshot().context.csrfToken).toBeNull();
    expect(desk.calls.some((call) => call.key === 'POST /api/admin/auth/logout' && call.csrfToken === deskCsrfToken && call.credentials === 'same-origin')).toBe(true);
  });

  it('behavior: a screen the roles do not see says so, and the menu leaves it out', async () => {
    await renderDesk({ path: '/ops/withdrawals', signedInAs: { roles: ['support'] } });
    expect(await screen.findByText('This screen is for operators with the role: Finance.')).toBeTruthy();
    const navigation = screen.getByRole('navigation', { name: "The desk's screens" });
    expect(within(navigation).getAllByRole('link').map((link) => link.textContent)).toEqual(['Overview', 'Members', 'Orders', 'API keys']);
  });

  it('behavior: a token the server refuses (1002) ends the session', async () => {
    const desk = await renderDesk({ path: '/ops/reconcile', signedInAs: { roles: ['finance'] }, handlers: { 'GET /api/admin/reconcile': () => ({ code: 1002 }) } });
    expect(await screen.findByRole('button', { name: 'Connect wallet' })).toBeTruthy();
    expect(desk.actors.session.getSnapshot().context.csrfToken).toBeNull();
  });
});

describe('the desk: withdrawals', { timeout: 15_000 }, () => {
  it('behavior: loading, then an error with a retry, then the queue', async () => {
    let answer: (value: { code: number; result?: unknown }) => void = () => undefined;
    const desk = await renderDesk({
      path: '/ops/withdrawals',
      signedInAs: { roles: ['finance'] },
      handlers: { 'GET /api/admin/withdrawals': () => new Promise((resolve) => (answer = resolve)) },
    });
    expect(await screen.findByText('Loading…')).toBeTruthy();
    answer({ code: -1 });
    await desk.user.click(await screen.findByRole('button', { name: 'Try again' }));
    answer({ code: 0, result: queuePage([withdrawal('41')], null) });
    expect(await screen.findByRole('button', { name: /^#41 / })).toBeTruthy();
    expect(screen.getByText('0 of 2 approvals')).toBeTruthy();
  });

  it('behavior: a queue longer than a page goes on to the next page and back', async () => {
    const desk = await renderDesk({
      path: '/ops/withdrawals',
      signedInAs: { roles: ['finance'] },
      handlers: {
        'GET /api/admin/withdrawals': ({ query }) =>
          query.get('cursor') === '41' ? { code: 0, result: queuePage([withdrawal('40')], null) } : { code: 0, result: queuePage([withdrawal('41')], '41') },
      },
    });
    await desk.user.click(await screen.findByRole('button', { name: 'Next page' }));
    expect(await screen.findByRole('button', { name: /^#40 / })).toBeTruthy();
    expect(desk.calls.filter((call) => call.key === 'GET /api/admin/withdrawals').map((call) => call.query.get('cursor'))).toEqual([null, '41']);
    await desk.user.click(screen.getByRole('button', { name: 'Newest first' }));
    expect(await screen.findByRole('button', { name: /^#41 / })).toBeTruthy();
    // The member filter sent again as it is, from the next page: the first page is read again.
    await desk.user.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByRole('button', { name: /^#40 / });
    await desk.user.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await screen.findByRole('button', { name: /^#41 / })).toBeTruthy();
    expect(desk.calls.filter((call) => call.key === 'GET /api/admin/withdrawals').map((call) => call.query.get('cursor'))).toEqual([null, '41', null, '41', null]);
  });

  it('behavior: Back and Forward read the queue the address shows, and the member field follows', async () => {
    const byQuery: Record<string, string> = { pending: '41', paid: '40', [`paid ${member}`]: '39' };
    const desk = await renderDesk({
      path: '/ops/withdrawals',
      signedInAs: { roles: ['finance'] },
      handlers: {
        'GET /api/admin/withdrawals': ({ query }) => {
          const id = byQuery[[query.get('status'), query.get('address')].filter(Boolean).join(' ')] ?? '0';
          return { code: 0, result: queuePage([withdrawal(id, { status: query.get('status') })], null) };
        },
      },
    });
    const shows = async (id: string, field: string) => {
      expect(await screen.findByRole('button', { name: new RegExp(`^#${id} `) })).toBeTruthy();
      expect((screen.getByLabelText('Member address') as HTMLInputElement).value).toBe(field);
    };
    await shows('41', '');
    await desk.user.click(screen.getByRole('button', { name: 'Paid' }));
    await shows('40', '');
    await desk.user.type(screen.getByLabelText('Member address'), member);
    await desk.user.click(screen.getByRole('button', { name: 'Filter' }));
    await shows('39', member);
    await act(() => desk.router.navigate(-1));
    await shows('40', '');
    await act(() => desk.router.navigate(-1));
    await shows('41', '');
    await act(() => desk.router.navigate(2));
    await shows('39', member);
    const reads = desk.calls.filter((call) => call.key === 'GET /api/admin/withdrawals').map((call) => [call.query.get('status'), call.query.get('address')]);
    expect(reads).toEqual([
      ['pending', null],
      ['paid', null],
      ['paid', member],
      ['paid', null],
      ['pending', null],
      ['paid', member],
    ]);
  });

  it('behavior: an empty tab says so', async () => {
    await renderDesk({ path: '/ops/withdrawals?status=stuck', signedInAs: { roles: ['finance'] }, handlers: { 'GET /api/admin/withdrawals': () => ({ code: 0, result: queuePage([], null) }) } });
    expect(await screen.findByText('No withdrawals are Stuck.')).toBeTruthy();
  });

  it('behavior: the first approval above the threshold waits for a second approver; the member is beside it', async () => {
    const desk = await renderDesk({
      path: '/ops/withdrawals?status=pending&id=41',
      signedInAs: { roles: ['finance'] },
      handlers: {
        'GET /api/admin/withdrawals': () => ({ code: 0, result: queuePage([withdrawal('41')], null) }),
        'GET /api/admin/member': () => ({ code: 0, result: memberAnswer }),
        'POST /api/admin/withdrawal/decide': () => ({
          code: 0,
          result: { ...withdrawal('41'), approvals: [{ address: financeAddress, approvedAt: '2026-11-27T09:30:00.000Z' }], waitsForSecondApproval: true },
        }),
      },
    });
    expect(await screen.findByText('Above the threshold: 2 different finance operators must approve it.')).toBeTruthy();
    expect(await screen.findByText('AB12CD34')).toBeTruthy();
    await desk.user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(desk.calls.some((call) => call.key === 'POST /api/admin/withdrawal/decide')).toBe(false);
    await desk.user.click(screen.getByRole('button', { name: 'Confirm approval' }));
    expect(await screen.findByText(/Waiting for a second approver \(1 of 2\)/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(desk.calls.find((call) => call.key === 'POST /api/admin/withdrawal/decide')?.body).toEqual({ id: '41', status: 'approved' });
  });

  it('behavior: an approved withdrawal leaves the pending tab, and its detail stays open saying so', async () => {
    const lists = [queuePage([withdrawal('42', { approvalsNeeded: 1 })], null), queuePage([], null)];
    const desk = await renderDesk({
      path: '/ops/withdrawals?status=pending&id=42',
      signedInAs: { roles: ['finance'] },
      handlers: {
        'GET /api/admin/withdrawals': () => ({ code: 0, result: lists.shift() ?? queuePage([], null) }),
        'GET /api/admin/member': () => ({ code: 0, result: memberAnswer }),
        'POST /api/admin/withdrawal/decide': () => ({ code: 0, result: { ...withdrawal('42'), status: 'approved', approvals: [{ address: financeAddress, approvedAt: '2026-11-27T09:30:00.000Z' }] } }),
      },
    });
    await desk.user.click(await screen.findByRole('button', { name: 'Approve' }));
    await desk.user.click(screen.getByRole('button', { name: 'Confirm approval' }));
    expect(await screen.findByText('No withdrawals are Pending.')).toBeTruthy();
    const detail = screen.getByRole('article', { name: 'Withdrawal #42' });
    expect(within(detail).getByText("Approved: the payer sends it to the member's address.")).toBeTruthy();
  });

  it('behavior: failing takes a reason; a refusal says why and can be retried', async () => {
    const decide = [{ code: 3006 }, { code: 0, result: { ...withdrawal('41', { approvalsNeeded: 1 }), status: 'failed', note: 'asked to cancel' } }];
    const desk = await renderDesk({
      path: '/ops/withdrawals?status=pending&id=41',
      signedInAs: { roles: ['finance'] },
      handlers: {
        'GET /api/admin/withdrawals': () => ({ code: 0, result: queuePage([withdrawal('41', { approvalsNeeded: 1 })], null) }),
        'GET /api/admin/member': () => ({ code: 0, result: memberAnswer }),
        'POST /api/admin/withdrawal/decide': () => decide.shift() ?? { code: -1 },
      },
    });
    await desk.user.click(await screen.findByRole('button', { name: 'Fail with a reason…' }));
    const confirm = screen.getByRole('button', { name: 'Fail and refund' });
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await desk.user.type(screen.getByLabelText("Reason (the member's record keeps it)"), 'asked to cancel');
    await desk.user.click(screen.getByRole('button', { name: 'Fail and refund' }));
    expect(await screen.findByText('Already decided otherwise (by another operator, or the chain). Read the list again.')).toBeTruthy();
    await desk.user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(desk.calls.filter((call) => call.key === 'POST /api/admin/withdrawal/decide')).toHaveLength(2));
    expect(desk.calls.filter((call) => call.key === 'POST /api/admin/withdrawal/decide').map((call) => call.body)).toEqual([
      { id: '41', status: 'failed', reason: 'asked to cancel' },
      { id: '41', status: 'failed', reason: 'asked to cancel' },
    ]);
  });

  it('behavior: a failed withdrawal says why in the operator\'s words, not the API\'s', async () => {
    await renderDesk({
      path: '/ops/withdrawals?status=failed&id=43',
      signedInAs: { roles: ['finance'] },
      handlers: {
        'GET /api/admin/withdrawals': () => ({ code: 0, result: queuePage([withdrawal('43', { status: 'failed', reason: 'reverted', approvalsNeeded: 1 })], null) }),
        'GET /api/admin/member': () => ({ code: 0, result: memberAnswer }),
      },
    });
    const detail = await screen.findByRole('article', { name: 'Withdrawal #43' });
    expect(within(detail).getByText('Its payment reverted on chain (refunded)')).toBeTruthy();
    expect(within(detail).queryByText('reverted')).toBeNull();
  });

  it('behavior: bulk approval sends only ticks on the list shown: Back, Forward and the next page start with none', async () => {
    const desk = await renderDesk({
      path: '/ops/withdrawals',
      signedInAs: { roles: ['finance'] },
      handlers: {
        'GET /api/admin/withdrawals': ({ query }) => {
          if (query.get('address')) return { code: 0, result: queuePage([withdrawal('30')], null) };
          return query.get('cursor') === '41' ? { code: 0, result: queuePage([withdrawal('40')], null) } : { code: 0, result: queuePage([withdrawal('41')], '41') };
        },
        'POST /api/admin/withdrawals/approve': () => ({ code: 0, result: { results: [{ id: '30', code: 0, waitsForSecondApproval: true }] } }),
      },
    });
    await desk.user.click(await screen.findByLabelText('Select withdrawal #41'));
    expect(screen.getByRole('button', { name: 'Approve selected (1)' })).toBeTruthy();
    // The next page: #41 is not shown, so it is not counted or sent.
    await desk.user.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByLabelText('Select withdrawal #40');
    expect(screen.getByRole('button', { name: 'Approve selected (0)' })).toHaveProperty('disabled', true);
    await desk.user.click(screen.getByRole('button', { name: 'Newest first' }));
    await desk.user.click(await screen.findByLabelText('Select withdrawal #41'));
    await desk.user.type(screen.getByLabelText('Member address'), member);
    await desk.user.click(screen.getByRole('button', { name: 'Filter' }));
    await desk.user.click(await screen.findByLabelText('Select withdrawal #30'));
    await act(() => desk.router.navigate(-1));
    await screen.findByLabelText('Select withdrawal #41');
    // Back on the unfiltered list: neither the tick made here before nor the one on the member's list counts.
    expect((screen.getByLabelText('Select withdrawal #41') as HTMLInputElement).checked).toBe(false);
    expect(screen.getByRole('button', { name: 'Approve selected (0)' })).toHaveProperty('disabled', true);
    await act(() => desk.router.navigate(1));
    await desk.user.click(await screen.findByLabelText('Select withdrawal #30'));
    await desk.user.click(screen.getByRole('button', { name: 'Approve selected (1)' }));
    await desk.user.click(await screen.findByRole('button', { name: 'Confirm: approve 1' }));
    await waitFor(() => expect(desk.calls.find((call) => call.key === 'POST /api/admin/withdrawals/approve')?.body).toEqual({ ids: ['30'] }));
  });

  it('behavior: bulk approval sends the chosen ids and says what each became', async () => {
    const desk = await renderDesk({
      path: '/ops/withdrawals',
      signedInAs: { roles: ['finance'] },
      handlers: {
        'GET /api/admin/withdrawals': () => ({ code: 0, result: queuePage([withdrawal('41'), withdrawal('42', { approvalsNeeded: 1 })], null) }),
        'POST /api/admin/withdrawals/approve': () => ({
          code: 0,
          result: { results: [{ id: '41', code: 0, waitsForSecondApproval: true }, { id: '42', code: 3008 }] },
        }),
      },
    });
    await desk.user.click(await screen.findByLabelText('Select withdrawal #41'));
    await desk.user.click(screen.getByLabelText('Select withdrawal #42'));
    await desk.user.click(screen.getByRole('button', { name: 'Approve selected (2)' }));
    // Nothing is sent before the operator confirms how many.
    expect(await screen.findByText('Approve the 2 chosen? Each above the threshold then waits for a second finance operator.')).toBeTruthy();
    expect(desk.calls.some((call) => call.key === 'POST /api/admin/withdrawals/approve')).toBe(false);
    await desk.user.click(screen.getByRole('button', { name: 'Confirm: approve 2' }));
    expect(await screen.findByText('0 approved; 1 waits for a second approver.')).toBeTruthy();
    expect(screen.getByText(/#42: This member's account is frozen/)).toBeTruthy();
    expect(desk.calls.find((call) => call.key === 'POST /api/admin/withdrawals/approve')?.body).toEqual({ ids: ['41', '42'] });
  });
});

describe('the desk: top-ups, reconcile, members, keys', { timeout: 15_000 }, () => {
  const held = {
    txHash: `0x${'ab'.repeat(32)}`,
    logPosition: 0,
    from: second,
    amount: '25',
    blockNumber: '120',
    seenAt: '2026-11-27T08:00:00.000Z',
    senderIsContract: true,
    reorged: false,
    state: 'held',
  };

  it('behavior: a held top-up is released to a member with one request id', async () => {
    const desk = await renderDesk({
      path: '/ops/top-ups',
      signedInAs: { roles: ['finance'] },
      handlers: {
        'GET /api/admin/topUps/held': () => ({ code: 0, result: queuePage([held]) }),
        'POST /api/admin/topUps/release': () => ({ code: 0, result: { ...held, state: 'released', releasedTo: member } }),
      },
    });
    await desk.user.click(await screen.findByRole('button', { name: 'Release to a member…' }));
    await desk.user.type(screen.getByLabelText('Member address'), member);
    await desk.user.click(screen.getByRole('button', { name: 'Release' }));
    await waitFor(() => expect(desk.calls.some((call) => call.key === 'POST /api/admin/topUps/release')).toBe(true));
    const body = desk.calls.find((call) => call.key === 'POST /api/admin/topUps/release')?.body as Record<string, unknown>;
    expect(body).toMatchObject({ txHash: held.txHash, logPosition: 0, address: member });
    expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('behavior: Back returns the top-ups tab the address names', async () => {
    const desk = await renderDesk({
      path: '/ops/top-ups',
      signedInAs: { roles: ['finance'] },
      handlers: { 'GET /api/admin/topUps/held': ({ query }) => ({ code: 0, result: queuePage(query.get('state') === 'held' ? [held] : []) }) },
    });
    expect(await screen.findByRole('button', { name: 'Release to a member…' })).toBeTruthy();
    await desk.user.click(screen.getByRole('button', { name: 'Returned' }));
    expect(await screen.findByText('No top-ups are Returned.')).toBeTruthy();
    await act(() => desk.router.navigate(-1));
    expect(await screen.findByRole('button', { name: 'Release to a member…' })).toBeTruthy();
    expect(desk.calls.filter((call) => call.key === 'GET /api/admin/topUps/held').map((call) => call.query.get('state'))).toEqual(['held', 'returned', 'held']);
  });

  it('behavior: Back returns the member looked up before, in the field and below it', async () => {
    const other = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
    const desk = await renderDesk({
      path: `/ops/members?q=${member}`,
      signedInAs: { roles: ['support'] },
      handlers: { 'GET /api/admin/member': ({ query }) => ({ code: 0, result: { ...memberAnswer, address: query.get('q'), team: { direct: query.get('q') === member ? 2 : 7, total: 9 } } }) },
    });
    expect(await screen.findByText('2 direct, 9 in all')).toBeTruthy();
    const field = screen.getByLabelText('Address or invite code') as HTMLInputElement;
    await desk.user.clear(field);
    await desk.user.type(field, other);
    await desk.user.click(screen.getByRole('button', { name: 'Find' }));
    expect(await screen.findByText('7 direct, 9 in all')).toBeTruthy();
    await act(() => desk.router.navigate(-1));
    expect(await screen.findByText('2 direct, 9 in all')).toBeTruthy();
    expect((screen.getByLabelText('Address or invite code') as HTMLInputElement).value).toBe(member);
  });

  it('behavior: reconcile lists what is off with what to do', async () => {
    const unknownPayment = {
      hash: `0x${'ef'.repeat(32)}`,
      payer: second,
      nonce: '5',
      blockNumber: '40',
      kind: 'unknownWithdrawal',
      to: second,
      amount: '9',
      withdrawalId: '12',
      member: second,
      foundAt: '2026-12-01T00:00:00.000Z',
      settlement: null,
      settledAt: null,
      settledBy: null,
    };
    const recoverBodies: unknown[] = [];
    const settleBodies: unknown[] = [];
    const resumeBodies: unknown[] = [];
    const desk = await renderDesk({
      path: '/ops/reconcile',
      signedInAs: { roles: ['admin'] },
      handlers: {
        'GET /api/admin/reconcile': () => ({
          code: 0,
          result: {
            ok: false,
            chain: { treasury: '100', payer: '10' },
            ledger: { members: '90', payable: '15', heldTopUps: '0' },
            owed: '105',
            backing: '110',
            difference: '5',
            pendingPayments: '0',
            payer: { address: second, approved: '15', waiting: 'gas', lost: '0', gasWei: '0' },
            lostPayments: [],
            reorgedCredits: [],
            stuckPayments: [{ withdrawalId: '9', hash: `0x${'cd'.repeat(32)}`, nonce: '4', payer: second, ageSeconds: 600, reason: 'fee' }],
            journal: { chainNonce: '6', knownNonce: '4', halted: true, problem: 'payouts halted' },
            unknownPayments: [unknownPayment],
            pause: { id: '3', pausedAt: '2026-12-01T00:00:00.000Z', causes: [{ cause: 'unknownPayment', detail: '1 payment(s) found on chain wait to be settled' }], approvals: [] },
            missedTopUps: [],
          },
        }),
        'GET /api/admin/alerts': () => ({
          code: 0,
          result: {
            firing: [
              {
                id: '1',
                rule: 'PayoutsPaused',
                severity: 'critical',
                summary: 'Payouts are paused on doubt',
                description: 'paused since 2026-12-01T00:00:00.000Z: unknownPayment',
                startedAt: '2026-12-01T00:00:00.000Z',
                endedAt: null,
              },
            ],
            resolved: [],
          },
        }),
        'POST /api/admin/payouts/resume': ({ body }) => {
          resumeBodies.push(body);
          return { code: 0, result: { pause: { id: '3', pausedAt: '2026-12-01T00:00:00.000Z', causes: [] }, resumed: false, waitsForSecondApproval: true, approvals: [second] } };
        },
        'POST /api/admin/payer/recover': ({ body }) => {
          recoverBodies.push(body);
          return { code: 0, result: { fromNonce: '4', toNonce: '6', recordedPayments: 1, fillers: 0, unknownPayments: 1, stoppedAt: null, knownNonce: '6' } };
        },
        'POST /api/admin/unknownPayments/settle': ({ body }) => {
          settleBodies.push(body);
          return { code: 0, result: { payment: { ...unknownPayment, settlement: 'debit', settledAt: '2026-12-01T00:00:00.000Z', settledBy: second }, waitsForSecondApproval: false, approvals: [] } };
        },
      },
    });
    expect(await screen.findByText('Not OK: act on what is listed below.')).toBeTruthy();
    expect(screen.getByText('The payer raises the fee by itself: check the gas money.')).toBeTruthy();
    expect(screen.getByText('Approved withdrawals wait: fund the hot wallet.')).toBeTruthy();
    expect(screen.getAllByText('Nothing to act on.')).toHaveLength(2);
    // The journal: halted, the recovery run from here; then the unknown payment debited with a reason.
    expect(screen.getByText("Payouts halted: the chain shows what the database does not know.")).toBeTruthy();
    await desk.user.click(screen.getByRole('button', { name: 'Recover from the chain' }));
    expect(await screen.findByText('Recorded 1 payment; 1 unknown payment to settle; accounted up to nonce 6.')).toBeTruthy();
    expect(recoverBodies).toEqual([{ requestId: expect.any(String) }]);
    const debit = screen.getByRole('button', { name: 'Debit the member' });
    expect(debit.hasAttribute('disabled') || debit.getAttribute('aria-disabled') === 'true').toBe(true);
    await desk.user.type(screen.getByLabelText('Reason'), 'paid after the backup');
    await desk.user.click(screen.getByRole('button', { name: 'Debit the member' }));
    expect(await screen.findByText('Settled.')).toBeTruthy();
    expect(settleBodies).toEqual([{ hash: unknownPayment.hash, settlement: 'debit', reason: 'paid after the backup', requestId: expect.any(String) }]);
    // Payouts paused on the unknown payment: why, and the resume that waits for a second finance operator.
    expect(screen.getByRole('heading', { name: 'Payouts paused' })).toBeTruthy();
    expect(screen.getByText('A payment the database never knew waits to be settled')).toBeTruthy();
    await desk.user.click(screen.getByRole('button', { name: 'Resume payouts' }));
    expect(await screen.findByText('Recorded: a second finance operator resumes them.')).toBeTruthy();
    expect(resumeBodies).toEqual([{ pauseId: '3', requestId: expect.any(String) }]);
    // The alerts firing, above the screen.
    expect(screen.getByRole('heading', { name: 'Alerts firing: 1' })).toBeTruthy();
    expect(screen.getByText('Payouts are paused on doubt')).toBeTruthy();
  });

  it('behavior: money settings: confirms the change another finance operator asked for, and asks for one typed', async () => {
    const other = `0x${'12'.repeat(20)}`;
    const bodies: unknown[] = [];
    const desk = await renderDesk({
      path: '/ops/members',
      signedInAs: { roles: ['finance'] },
      handlers: {
        'GET /api/admin/config/money': () => ({ code: 0, result: { current: seededMoneySettings, pending: { values: { ...seededMoneySettings, withdrawFee: '2' }, requestedBy: other } } }),
        'POST /api/admin/config/money': ({ body }) => {
          bodies.push(body);
          return { code: 0, result: { applied: bodies.length === 1, waitsForSecondApproval: bodies.length > 1, approvals: [financeAddress], current: seededMoneySettings } };
        },
      },
    });
    expect(await screen.findByRole('heading', { name: 'Money settings' })).toBeTruthy();
    await desk.user.click(screen.getByRole('button', { name: 'Confirm this change' }));
    expect(await screen.findByText(/Applied: members see the new values now\./)).toBeTruthy();
    expect(bodies).toEqual([{ ...seededMoneySettings, withdrawFee: '2', requestId: expect.any(String) }]);
    await desk.user.click(screen.getByRole('button', { name: 'Close' }));
    // A field typed wrong says so and the form waits; typed right, the change is asked for.
    const fee = screen.getByLabelText('Withdrawal fee');
    await desk.user.clear(fee);
    await desk.user.type(fee, '3x');
    expect(screen.getByText('An amount such as 10 or 2.5')).toBeTruthy();
    await desk.user.clear(fee);
    await desk.user.type(fee, '3');
    await desk.user.click(screen.getByRole('button', { name: 'Ask for this change' }));
    expect(await screen.findByText(/Recorded: a second finance operator confirms it\./)).toBeTruthy();
    expect(bodies[1]).toEqual({ ...seededMoneySettings, withdrawFee: '3', requestId: expect.any(String) });
  });

  it('behavior: a member not found says so with a retry; a found one shows balances and acts', async () => {
    const answers = [{ code: 4004 }, { code: 0, result: memberAnswer }];
    const desk = await renderDesk({
      path: '/ops/members',
      signedInAs: { roles: ['support'] },
      handlers: { 'GET /api/admin/member': () => answers.shift() ?? { code: -1 }, 'POST /api/admin/member/signOut': () => ({ code: 0, result: { revoked: 1 } }) },
    });
    expect(await screen.findByText('Find a member by address or invite code.')).toBeTruthy();
    await desk.user.type(screen.getByLabelText('Address or invite code'), 'AB12CD34');
    await desk.user.click(screen.getByRole('button', { name: 'Find' }));
    expect(await screen.findByText('Not found: no such member, operator or record.')).toBeTruthy();
    await desk.user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('2 direct, 5 in all')).toBeTruthy();
    // Support does not grant or deduct (finance's call).
    expect(screen.queryByRole('heading', { name: 'Grant or deduct' })).toBeNull();
    await desk.user.click(screen.getByRole('button', { name: 'Sign the member out everywhere' }));
    expect(await screen.findByText('1 session ended.')).toBeTruthy();
  });

  it('behavior: finance sees the grants waiting for a second operator and confirms one; its own says another confirms it', async () => {
    const waiting = (id: string, requestedBy: string) => ({
      id,
      address: member,
      asset: 'CREDIT',
      amount: '-500',
      reason: 'duplicate top-up',
      status: 'waiting',
      requestedBy,
      requestedAt: '2026-11-27T09:00:00.000Z',
    });
    const lists = [[waiting('12', second), waiting('13', financeAddress)], [waiting('13', financeAddress)]];
    const desk = await renderDesk({
      path: '/ops/members',
      signedInAs: { roles: ['finance'] },
      handlers: {
        'GET /api/admin/adjust/pending': () => ({ code: 0, result: { list: lists.shift() ?? [], nextCursor: null } }),
        'POST /api/admin/adjust/confirm': ({ body }) => ({ code: 0, result: { ...waiting((body as { id: string }).id, second), status: 'done', confirmedBy: financeAddress } }),
      },
    });
    const list = await screen.findByRole('list', { name: 'Waiting for a second operator' });
    expect(within(list).getByText('You asked for it: another finance operator confirms it.')).toBeTruthy();
    expect(within(list).queryByRole('button', { name: 'Confirm #13' })).toBeNull();
    await desk.user.click(within(list).getByRole('button', { name: 'Confirm #12' }));
    expect(await screen.findByText('Done (#12).')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Confirm #12' })).toBeNull());
    expect(desk.calls.find((call) => call.key === 'POST /api/admin/adjust/confirm')?.body).toEqual({ id: '12' });
  });

  it('behavior: the policy is shown read-only beside the acts it bounds; a failed read can be retried', async () => {
    const rule = (act: string, extra: Record<string, unknown> = {}) => ({
      act,
      roles: ['finance'],
      alonePerAct: '1000',
      aloneOperatorDay: '5000',
      aloneMemberDay: '1000',
      above: 'confirm',
      cap: '100000',
      notToSelf: true,
      why: 'x',
      ...extra,
    });
    const answers = [
      { code: 5000 },
      { code: 0, result: { rules: [rule('grant'), rule('distribute', { alonePerAct: null, aloneOperatorDay: null, aloneMemberDay: null, above: 'refuse', cap: null })] } },
    ];
    await renderDesk({ path: '/ops/members', signedInAs: { roles: ['support'] }, handlers: { 'GET /api/admin/policy': () => answers.shift() ?? { code: 5000 } } });
    const card = (await screen.findByRole('heading', { name: 'Policy: what one operator does alone' })).closest('section') as HTMLElement;
    await within(card).findByRole('button', { name: /try again/i });
    await act(async () => {
      within(card).getByRole('button', { name: /try again/i }).click();
    });
    const list = await within(card).findByRole('list', { name: 'Policy: what one operator does alone' });
    const grant = within(list).getByLabelText('Grant');
    expect(within(grant).getByText('A second operator confirms')).toBeTruthy();
    expect(within(grant).getByText('5,000.00')).toBeTruthy();
    const payout = within(list).getByLabelText('Share-pool payout');
    expect(within(payout).getByText('Refused')).toBeTruthy();
    expect(within(payout).getAllByText('—').length).toBe(4);
    // Nothing on it acts: no button but the retry that is gone.
    expect(within(card).queryAllByRole('button')).toEqual([]);
  });

  it('behavior: a new API key is shown once', async () => {
    const key = `mdk_${'0123456789abcdef'}_${'A'.repeat(43)}`;
    const apiKey = { id: '0123456789abcdef', label: 'payouts', roles: ['finance'], createdBy: financeAddress, createdAt: '2026-11-27T09:00:00.000Z', lastUsedAt: null, revokedAt: null };
    const desk = await renderDesk({
      path: '/ops/keys',
      signedInAs: { roles: ['finance'] },
      handlers: { 'GET /api/admin/keys': () => ({ code: 0, result: { keys: [] } }), 'POST /api/admin/keys/create': () => ({ code: 0, result: { id: apiKey.id, key, apiKey } }) },
    });
    expect(await screen.findByText('No API keys yet.')).toBeTruthy();
    await desk.user.type(screen.getByLabelText('What it is for'), 'payouts');
    await desk.user.click(screen.getByLabelText('Finance'));
    await desk.user.click(screen.getByRole('button', { name: 'Create the key' }));
    expect(await screen.findByText(key)).toBeTruthy();
    expect(screen.getByText('Copy it now: it is shown only this once.')).toBeTruthy();
    expect(desk.calls.find((call) => call.key === 'POST /api/admin/keys/create')?.body).toEqual({ label: 'payouts', roles: ['finance'] });
  });
});

describe('the desk: operators', { timeout: 15_000 }, () => {
  const change = (id: string, requestedBy: string, extra: Record<string, unknown> = {}) => ({
    id,
    kind: 'put',
    address: member,
    roles: ['finance', 'support'],
    requestedBy,
    requestedAt: '2026-11-27T09:00:00.000Z',
    status: 'waiting',
    confirmedBy: null,
    confirmedAt: null,
    cancelledAt: null,
    ...extra,
  });
  const operatorsAnswer = () => ({
    code: 0,
    result: { operators: [{ address: financeAddress, roles: ['admin'], addedAt: '2026-11-20T09:00:00.000Z', addedBy: null }, { address: second, roles: ['admin'], addedAt: '2026-11-21T09:00:00.000Z', addedBy: financeAddress }] },
  });

  it('behavior: an admin sees the changes waiting for a second admin, confirms another admin’s; their own says another confirms it', async () => {
    const lists = [[change('3', second), change('4', financeAddress, { kind: 'remove', roles: null })], [change('4', financeAddress, { kind: 'remove', roles: null })]];
    const desk = await renderDesk({
      path: '/ops/operators',
      signedInAs: { roles: ['admin'] },
      handlers: {
        'GET /api/admin/operators': operatorsAnswer,
        'GET /api/admin/operators/changes': () => ({ code: 0, result: { changes: lists.shift() ?? [] } }),
        'POST /api/admin/operators/confirm': ({ body }) => ({ code: 0, result: { ...change((body as { id: string }).id, second), status: 'done', confirmedBy: financeAddress, confirmedAt: '2026-11-27T09:05:00.000Z' } }),
      },
    });
    const list = await screen.findByRole('list', { name: 'Waiting for a second admin' });
    expect(within(list).getByText('Set roles: Finance, Support')).toBeTruthy();
    expect(within(list).getByText('Remove')).toBeTruthy();
    expect(within(list).getByText('You asked for it: another admin confirms it.')).toBeTruthy();
    expect(within(list).queryByRole('button', { name: 'Confirm #4' })).toBeNull();
    expect(within(list).getByRole('button', { name: 'Withdraw #4' })).toBeTruthy();
    await desk.user.click(within(list).getByRole('button', { name: 'Confirm #3' }));
    expect(await screen.findByText('Done (#3).')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Confirm #3' })).toBeNull());
    expect(desk.calls.find((call) => call.key === 'POST /api/admin/operators/confirm')?.body).toEqual({ id: '3' });
    // Both lists read again once the answer showed.
    expect(desk.calls.filter((call) => call.key === 'GET /api/admin/operators').length).toBeGreaterThanOrEqual(2);
  });

  it('behavior: with two admins a new operator waits for the other one, and says so', async () => {
    const desk = await renderDesk({
      path: '/ops/operators',
      signedInAs: { roles: ['admin'] },
      handlers: {
        'GET /api/admin/operators': operatorsAnswer,
        'GET /api/admin/operators/changes': () => ({ code: 0, result: { changes: [] } }),
        'POST /api/admin/operators/put': ({ body }) => ({ code: 0, result: { ...change('5', financeAddress), ...(body as object) } }),
      },
    });
    expect(await screen.findByText('No changes waiting.')).toBeTruthy();
    await desk.user.type(screen.getByLabelText('Operator address'), member);
    await desk.user.click(within(screen.getByRole('group', { name: 'Roles' })).getByLabelText('Finance'));
    await desk.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Waiting for another admin to confirm it (#5).')).toBeTruthy();
    expect(desk.calls.find((call) => call.key === 'POST /api/admin/operators/put')?.body).toEqual({ address: member, roles: ['finance'] });
  });
});
