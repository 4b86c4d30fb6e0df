/**
 * The settlement's generated paths (every transition walked, with and without goods in the route) and its promises
 * at every step of them: busy while waiting, a request id exactly while a confirmation is under way, the quantity
 * within stock, confirm offered only for a payable order, retry only where it cannot pay twice, the paid output.
 */
import { describe, expect } from 'vitest';
import { parseAmount } from '../../api-schema/amount';
import { buyRequestId, settlementModel, settlementModelWithoutGoods } from '../../scripts/machineGraph/buy.model';
import { describeModelPaths } from './support/describeModelPaths';
import { checkAlongPaths } from './support/checkAlongPaths';

await describeModelPaths('settlement', [settlementModel, settlementModelWithoutGoods]);

const busyStates = ['loading', 'checking', 'paying', 'refreshing'];
const withRequest = ['checking', 'paying', 'interrupted', 'failed'];
const withoutRequest = ['noGoods', 'goodsNotFound', 'loadFailed', 'ready', 'refreshing'];

describe('settlement machine: along every generated path', () => {
  checkAlongPaths([settlementModel, settlementModelWithoutGoods], ({ snapshot, path }) => {
    const value = String(snapshot.value);
    const { context } = snapshot;
    expect(snapshot.hasTag('busy'), path).toBe(busyStates.includes(value));
    if (withRequest.includes(value)) expect(context.requestId, path).toBe(buyRequestId);
    if (withoutRequest.includes(value)) expect(context.requestId, path).toBeNull();
    if (context.goods) {
      expect(context.quantity, path).toBeGreaterThanOrEqual(1);
      expect(context.quantity, path).toBeLessThanOrEqual(Math.max(1, Math.min(context.goods.stock, 999)));
    }
    if (snapshot.can({ type: 'user.confirm', requestId: 'x' })) {
      // Independently of the machine's rule: an address of the list, stock for the quantity, credit for the total.
      expect(value).toBe('ready');
      expect(context.addresses.map((address: { deliveryId: string }) => address.deliveryId)).toContain(context.deliveryId);
      expect(context.goods.stock).toBeGreaterThanOrEqual(context.quantity);
      expect((parseAmount(context.goods.price) ?? 0n) * BigInt(context.quantity)).toBeLessThanOrEqual(parseAmount(context.balance) ?? -1n);
    }
    if (value === 'failed') expect(snapshot.can({ type: 'user.retry' }), path).toBe(context.refusal === null);
    if (value === 'paid') expect(snapshot.output, path).toEqual(context.result);
  });
});
