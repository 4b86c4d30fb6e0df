/**
 * The buy flow through the HTTP API on every database target: goods and their images, the shipping address book
 * (its field rules, the one default, at most 20, owners only, the database's own rules), settlement through the
 * ledger engine (its order of checks, at most once per request id, the address copy kept on the order) and the last
 * units bought at the same moment. The books are checked after every step that moves money.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { ApiCode } from '../../api-schema/codes';
import { SEED_GOODS } from '../../server/seed/content';
import { expectNoDbChange, expectRefused } from './support/assertions';
import { describeWithDatabases } from './support/harness';
import { expectBooksBalanced, expectNoMoneyMoved, grant } from './support/testLedger';
import { accounts, authHeaders, envelope, signInBound } from './support/memberSignIn';

interface Address {
  deliveryId: string;
  name: string;
  phone: string;
  region: string;
  detail: string;
  isDefault: boolean;
}

interface Goods {
  id: string;
  name: string;
  image: string;
  price: string;
  stock: number;
}

const home = { name: '李雷', phone: '138 0013 8000', region: '浙江省 / 杭州市 / 西湖区', detail: '文三路 100 号', isDefault: false };

describeWithDatabases('buy', (ctx) => {
  async function setup(): Promise<{ app: FastifyInstance; alice: string; bob: string }> {
    const app = await ctx.app();
    const now = ctx.clock.now();
    return { app, alice: await signInBound(app, accounts.alice, now), bob: await signInBound(app, accounts.bob, now) };
  }

  const post = (app: FastifyInstance, token: string, url: string, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url, headers: authHeaders(token), payload });
  const get = async <T>(app: FastifyInstance, token: string | null, url: string, query: Record<string, string> = {}) =>
    envelope<T>(await app.inject({ method: 'GET', url, headers: token ? authHeaders(token) : {}, query }));
  const addresses = async (app: FastifyInstance, token: string) => (await get<{ list: Address[] }>(app, token, '/api/member/delivery/list')).result?.list ?? [];
  async function add(app: FastifyInstance, token: string, fields: Partial<typeof home> = {}): Promise<Address> {
    const answer = envelope<Address>(await post(app, token, '/api/member/delivery/add', { ...home, ...fields }));
    expect(answer.code).toBe(0);
    if (!answer.result) throw new Error('no address');
    return answer.result;
  }
  const settle = (app: FastifyInstance, token: string, body: Record<string, unknown>) => post(app, token, '/api/order/settle', body);
  const credit = async (app: FastifyInstance, token: string) => (await get<{ creditBalance: string }>(app, token, '/api/member/meInfo')).result?.creditBalance;
  const goodsOf = async (app: FastifyInstance, id: string) => (await get<Goods>(app, null, '/api/goods/detail', { id, lang: 'en' })).result;
  async function grantCredit(app: FastifyInstance, address: string, amount: string): Promise<void> {
    expect(envelope(await grant(app, { address, asset: 'CREDIT', amount, requestId: randomUUID() })).code).toBe(0);
  }

  it('lists the seeded goods in both languages, pages them, and serves their images from this server', async () => {
    const { app } = await setup();
    const zh = await get<{ list: Goods[]; total: number }>(app, null, '/api/goods/list');
    expect(zh.result?.total).toBe(SEED_GOODS.length);
    expect(zh.result?.list.map((item) => [item.id, item.name, item.price, item.stock])).toEqual(
      SEED_GOODS.map((item) => [item.id, item.nameZh, item.price, item.stock]),
    );
    const page2 = await get<{ list: Goods[]; total: number }>(app, null, '/api/goods/list', { page: '2', pageSize: '2', lang: 'en' });
    expect(page2.result).toMatchObject({ total: SEED_GOODS.length, page: 2, pageSize: 2 });
    expect(page2.result?.list.map((item) => item.name)).toEqual(SEED_GOODS.slice(2, 4).map((item) => item.nameEn));
    expect(await goodsOf(app, 'jade-mug')).toMatchObject({ name: 'Celadon mug (limited)', stock: 1, image: '/media/goods/jade-mug.svg' });
    expectRefused(await app.inject({ method: 'GET', url: '/api/goods/detail', query: { id: 'no-such-goods' } }), ApiCode.notFound);

    for (const item of SEED_GOODS) {
      const image = await app.inject({ method: 'GET', url: item.image });
      expect({ status: image.statusCode, type: image.headers['content-type'] }).toEqual({ status: 200, type: 'image/svg+xml' });
      expect(image.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(image.body).not.toMatch(/<script|on[a-z]+=/i);
    }
    // A path that tries to leave the folder is refused before it reaches the file system.
    expect(envelope(await app.inject({ method: 'GET', url: '/media/goods/..%2Fgoods.ts' })).code).not.toBe(ApiCode.ok);
    expectRefused(await app.inject({ method: 'GET', url: '/media/goods/missing.svg' }), ApiCode.notFound);
  });

  it('keeps exactly one default: the first address, one added or edited as default, the newest left when the default goes', async () => {
    const { app, alice } = await setup();
    const first = await add(app, alice, { isDefault: false });
    expect(first.isDefault).toBe(true);
    const second = await add(app, alice, { name: 'Office', isDefault: false });
    expect((await addresses(app, alice)).map((address) => [address.deliveryId, address.isDefault])).toEqual([
      [first.deliveryId, true],
      [second.deliveryId, false],
    ]);
    const third = await add(app, alice, { name: 'Parents', isDefault: true });
    expect((await addresses(app, alice)).map((address) => [address.deliveryId, address.isDefault])).toEqual([
      [third.deliveryId, true],
      [second.deliveryId, false],
      [first.deliveryId, false],
    ]);
    // isDefault false on the default leaves it the default; true on another moves it.
    expect(envelope<Address>(await post(app, alice, '/api/member/delivery/edit', { ...third, isDefault: false })).result?.isDefault).toBe(true);
    expect(envelope<Address>(await post(app, alice, '/api/member/delivery/edit', { ...first, detail: '  文三路 200 号 ', isDefault: true })).result).toMatchObject({
      isDefault: true,
      detail: '文三路 200 号',
    });
    expect((await addresses(app, alice))[0]?.deliveryId).toBe(first.deliveryId);
    // Deleting the default: the most recently added of the rest.
    expect(envelope(await post(app, alice, '/api/member/delivery/delete', { deliveryId: first.deliveryId })).code).toBe(0);
    expect((await addresses(app, alice)).map((address) => [address.deliveryId, address.isDefault])).toEqual([
      [third.deliveryId, true],
      [second.deliveryId, false],
    ]);
    // The database itself refuses a second default and a member left without one.
    await expect(ctx.db.execute(sql`UPDATE delivery_addresses SET is_default = true WHERE id = ${BigInt(second.deliveryId)}`)).rejects.toThrow();
    await expect(ctx.db.execute(sql`UPDATE delivery_addresses SET is_default = false WHERE id = ${BigInt(third.deliveryId)}`)).rejects.toThrow();
    expect((await addresses(app, alice)).filter((address) => address.isDefault)).toHaveLength(1);
  });

  it('adds an address at most once per request id: a repeat answers the first address, another body is 3003', async () => {
    const { app, alice, bob } = await setup();
    const requestId = randomUUID();
    const first = envelope<Address>(await post(app, alice, '/api/member/delivery/add', { ...home, requestId }));
    expect(first.code).toBe(0);
    const repeat = envelope<Address>(await post(app, alice, '/api/member/delivery/add', { ...home, requestId }));
    expect(repeat).toEqual(first);
    expectRefused(await post(app, alice, '/api/member/delivery/add', { ...home, detail: 'No. 2 Keji Road', requestId }), ApiCode.requestIdReused);
    expect((await addresses(app, alice)).map((address) => address.deliveryId)).toEqual([first.result?.deliveryId]);
    // Request ids are the member's own: the same id from another member is a request of its own.
    expect(envelope<Address>(await post(app, bob, '/api/member/delivery/add', { ...home, requestId })).code).toBe(0);
    expect(await addresses(app, bob)).toHaveLength(1);
    // Without an id each add is a new address.
    await add(app, alice, { detail: 'No. 3 Keji Road' });
    expect(await addresses(app, alice)).toHaveLength(2);
  });

  it('refuses every bad field with 1001 naming it, saving nothing; a 21st address is 3002', async () => {
    const { app, alice } = await setup();
    const bad: Array<[field: string, value: unknown]> = [
      ['name', ''],
      ['name', '   '],
      ['name', 'x'.repeat(65)],
      ['name', '<b>Li</b>'],
      ['phone', ''],
      ['phone', '138abcd8000'],
      ['phone', '1380013800'],
      ['phone', '23800138000'],
      ['phone', '+86 138 0013 800'],
      ['phone', '+1 202 555 01'],
      ['region', ''],
      ['region', 'r'.repeat(129)],
      ['detail', '    '],
      ['detail', 'd'.repeat(257)],
      ['detail', 'Room 1 > Floor 2'],
    ];
    for (const [field, value] of bad) {
      await expectNoDbChange(ctx.db, async () => expectRefused(await post(app, alice, '/api/member/delivery/add', { ...home, [field]: value }), ApiCode.invalidParameters, field));
    }
    // Numbers as members type them: spaces and dashes, +86, another country's valid mobile.
    for (const phone of ['13800138000', '138-0013-8000', '+86 138 0013 8000', '+44 7400 123456', '+1 202-555-0143']) {
      expect((await add(app, alice, { phone })).phone).toBe(phone);
    }
    for (let count = 5; count < 20; count += 1) await add(app, alice, { name: `Address ${count + 1}` });
    expect(await addresses(app, alice)).toHaveLength(20);
    await expectNoDbChange(ctx.db, async () => expectRefused(await post(app, alice, '/api/member/delivery/add', home), ApiCode.amountOutOfLimits));
  });

  it("answers 4004 for another member's address: read through settlement, edit and delete", async () => {
    const { app, alice, bob } = await setup();
    const mine = await add(app, alice);
    await grantCredit(app, accounts.bob.address, '1000');
    await expectNoDbChange(ctx.db, async () => {
      expectRefused(await post(app, bob, '/api/member/delivery/edit', { ...mine, name: 'Bob' }), ApiCode.notFound);
      expectRefused(await post(app, bob, '/api/member/delivery/delete', { deliveryId: mine.deliveryId }), ApiCode.notFound);
      // Ids no row can have: unknown, letters, zero, and 19 digits above bigint's maximum (not a database error).
      for (const deliveryId of ['999999', 'home', '0', '9223372036854775807', '9999999999999999999']) {
        expectRefused(await post(app, bob, '/api/member/delivery/delete', { deliveryId }), ApiCode.notFound);
        expectRefused(await post(app, bob, '/api/member/delivery/edit', { ...mine, deliveryId }), ApiCode.notFound);
      }
    });
    expect(await addresses(app, bob)).toEqual([]);
    await expectNoMoneyMoved(ctx.db, async () =>
      expectRefused(await settle(app, bob, { goodsId: 'longjing-tea', quantity: 1, deliveryId: mine.deliveryId, requestId: randomUUID() }), ApiCode.notFound),
    );
  });

  it('settles: pays price × quantity to the sales account, takes the stock, keeps the address as it was, at most once per request id', async () => {
    const { app, alice } = await setup();
    await grantCredit(app, accounts.alice.address, '500');
    const address = await add(app, alice);
    const body = { goodsId: 'wildflower-honey', quantity: 3, deliveryId: address.deliveryId, requestId: randomUUID() };
    const first = envelope<{ orderId: string; amount: string; status: string }>(await settle(app, alice, body));
    expect(first).toMatchObject({ code: 0, result: { amount: '136.5', status: 'paid' } });
    expect(await credit(app, alice)).toBe('363.5');
    expect((await goodsOf(app, 'wildflower-honey'))?.stock).toBe(197);
    await expectBooksBalanced(ctx.db);

    // The same id: the same answer and nothing again; another body with it: 3003.
    expect(envelope(await expectNoMoneyMoved(ctx.db, () => settle(app, alice, body)))).toEqual(first);
    expectRefused(await expectNoMoneyMoved(ctx.db, () => settle(app, alice, { ...body, quantity: 4 })), ApiCode.requestIdReused);

    // Later edits and deletes leave the order's copy alone.
    await post(app, alice, '/api/member/delivery/edit', { ...address, detail: 'Moved away' });
    const orders = await get<{ list: Array<{ orderId: string; quantity: number; amount: string; status: string; address: Address; goods: Goods }>; total: number }>(
      app,
      alice,
      '/api/order/list',
      { lang: 'en' },
    );
    expect(orders.result?.total).toBe(1);
    expect(orders.result?.list[0]).toMatchObject({ orderId: first.result?.orderId, quantity: 3, amount: '136.5', status: 'paid', goods: { id: 'wildflower-honey', name: 'Wildflower honey, 500 g' } });
    expect(orders.result?.list[0]?.address).toEqual({ ...address, phone: home.phone.trim() });
    // The newest order first.
    const second = envelope<{ orderId: string }>(await settle(app, alice, { ...body, goodsId: 'member-notebook', quantity: 1, requestId: randomUUID() }));
    expect((await get<{ list: Array<{ orderId: string }> }>(app, alice, '/api/order/list')).result?.list.map((order) => order.orderId)).toEqual([
      second.result?.orderId,
      first.result?.orderId,
    ]);
    await expectBooksBalanced(ctx.db);
  });

  it('checks in order: unknown goods 4004, short stock 3002, short balance 3001, quantity outside 1..999 1001; none moves anything', async () => {
    const { app, alice } = await setup();
    await grantCredit(app, accounts.alice.address, '100');
    const { deliveryId } = await add(app, alice);
    const refused = async (body: Record<string, unknown>, code: (typeof ApiCode)[keyof typeof ApiCode]) =>
      expectRefused(await expectNoMoneyMoved(ctx.db, () => settle(app, alice, { deliveryId, requestId: randomUUID(), ...body })), code);
    await refused({ goodsId: 'no-such-goods', quantity: 1 }, ApiCode.notFound);
    await refused({ goodsId: 'jade-mug', quantity: 2 }, ApiCode.amountOutOfLimits);
    // Stock short and balance short at once: the stock is checked first.
    await refused({ goodsId: 'yunnan-coffee', quantity: 81 }, ApiCode.amountOutOfLimits);
    await refused({ goodsId: 'yunnan-coffee', quantity: 1 }, ApiCode.insufficientBalance);
    await refused({ goodsId: 'longjing-tea', quantity: 0 }, ApiCode.invalidParameters);
    await refused({ goodsId: 'longjing-tea', quantity: 1000 }, ApiCode.invalidParameters);
    await refused({ goodsId: 'longjing-tea', quantity: 1.5 }, ApiCode.invalidParameters);
    expect(await credit(app, alice)).toBe('100');
    // A refusal is the answer to its id from then on, even once the balance would cover it.
    const requestId = randomUUID();
    expectRefused(await settle(app, alice, { goodsId: 'yunnan-coffee', quantity: 1, deliveryId, requestId }), ApiCode.insufficientBalance);
    await grantCredit(app, accounts.alice.address, '100');
    expectRefused(await expectNoMoneyMoved(ctx.db, () => settle(app, alice, { goodsId: 'yunnan-coffee', quantity: 1, deliveryId, requestId })), ApiCode.insufficientBalance);
  });

  it('sells the last units exactly once when members buy them at the same moment (PostgreSQL: through two instances)', { timeout: 120_000 }, async () => {
    const apps = await ctx.instances();
    const appOf = (index: number) => apps[index % apps.length] as FastifyInstance;
    const buyers = Array.from({ length: 10 }, (_, index) => privateKeyToAccount(`0x${(index + 1).toString(16).padStart(64, '9')}`));
    const tokens = await Promise.all(buyers.map((account) => signInBound(appOf(0), account, ctx.clock.now())));
    await Promise.all(buyers.map((account) => grantCredit(appOf(0), account.address, '5000')));
    const deliveryIds = await Promise.all(tokens.map(async (token) => (await add(appOf(0), token)).deliveryId));
    // Each buyer wants the one limited mug and 10 of the coffee's 80 units, all at once, spread over the instances.
    const answers = await Promise.all(
      tokens.flatMap((token, index) => [
        settle(appOf(index), token, { goodsId: 'jade-mug', quantity: 1, deliveryId: deliveryIds[index], requestId: randomUUID() }),
        settle(appOf(index + 1), token, { goodsId: 'yunnan-coffee', quantity: 10, deliveryId: deliveryIds[index], requestId: randomUUID() }),
      ]),
    );
    const codes = answers.map((answer) => envelope(answer).code);
    const count = (goods: 0 | 1, code: number) => codes.filter((answer, index) => index % 2 === goods && answer === code).length;
    expect([count(0, 0), count(0, ApiCode.amountOutOfLimits)]).toEqual([1, 9]);
    expect([count(1, 0), count(1, ApiCode.amountOutOfLimits)]).toEqual([8, 2]);
    expect(await goodsOf(appOf(0), 'jade-mug')).toMatchObject({ stock: 0 });
    expect(await goodsOf(appOf(0), 'yunnan-coffee')).toMatchObject({ stock: 0 });
    await expectBooksBalanced(ctx.db);
  });

  it('sells no more than the stock to buyers of different quantities at once, some short of credit: each answer is what its order left', { timeout: 120_000 }, async () => {
    const apps = await ctx.instances();
    const appOf = (index: number) => apps[index % apps.length] as FastifyInstance;
    const buyers = Array.from({ length: 10 }, (_, index) => privateKeyToAccount(`0x${(index + 1).toString(16).padStart(64, '8')}`));
    const tokens = await Promise.all(buyers.map((account) => signInBound(appOf(0), account, ctx.clock.now())));
    // Coffee is 120 a unit, 80 in stock; quantities 3..21 (sum 120), and every third buyer can pay for one unit less.
    const quantities = buyers.map((_, index) => 3 + 2 * index);
    const credits = quantities.map((quantity, index) => (index % 3 === 2 ? 120 * (quantity - 1) : 120 * quantity + 7.5));
    await Promise.all(buyers.map((account, index) => grantCredit(appOf(0), account.address, String(credits[index]))));
    const deliveryIds = await Promise.all(tokens.map(async (token) => (await add(appOf(0), token)).deliveryId));
    const answers = await Promise.all(
      tokens.map((token, index) => settle(appOf(index), token, { goodsId: 'yunnan-coffee', quantity: quantities[index], deliveryId: deliveryIds[index], requestId: randomUUID() })),
    );
    const codes = answers.map((answer) => envelope(answer).code);
    const left = (await goodsOf(appOf(0), 'yunnan-coffee'))?.stock ?? -1;
    const sold = quantities.filter((_, index) => codes[index] === 0).reduce((sum, quantity) => sum + quantity, 0);
    expect(sold + left).toBe(80);
    for (const [index, code] of codes.entries()) {
      const quantity = quantities[index] ?? 0;
      // Short of credit is 3001 unless the stock ran out first; a short stock refusal means fewer units than it were left then.
      if (index % 3 === 2) expect([ApiCode.insufficientBalance, ApiCode.amountOutOfLimits]).toContain(code);
      else expect([0, ApiCode.amountOutOfLimits]).toContain(code);
      if (code === ApiCode.amountOutOfLimits) expect(quantity).toBeGreaterThan(left);
      const balance = code === 0 ? (credits[index] ?? 0) - 120 * quantity : (credits[index] ?? 0);
      expect(await credit(appOf(index), tokens[index] ?? '')).toBe(String(balance));
    }
    // Several orders of different sizes shared the stock (not one buyer taking it all).
    expect(codes.filter((code) => code === 0).length).toBeGreaterThan(1);
    await expectBooksBalanced(ctx.db);
  });
});
