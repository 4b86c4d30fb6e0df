/**
 * The buy machines' one stated limit agrees with the contract: the stepper's 999 is orderSettle's quantity maximum.
 */
import { describe, expect, it } from 'vitest';
import { orderSettle } from '../../api-schema/buy';
import { maxOrderQuantity } from './buyContract';

const body = (quantity: number) => ({ goodsId: 'mug', quantity, deliveryId: 'd1', requestId: '0b6f2a8e-3c1d-4e5f-8a9b-1c2d3e4f5a6b' });

describe('buy machines agree with the contract', () => {
  it('the largest quantity one order may hold', () => {
    expect(orderSettle.body.safeParse(body(maxOrderQuantity)).success).toBe(true);
    expect(orderSettle.body.safeParse(body(maxOrderQuantity + 1)).success).toBe(false);
    expect(orderSettle.body.safeParse(body(0)).success).toBe(false);
  });
});
