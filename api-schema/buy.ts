import * as z from 'zod/mini';
import { amountSchema, checked, intAtLeast, isoDateSchema, langSchema, pageOf, pageQuerySchema, requestIdSchema } from './primitives';
import { checkAddressText, checkPhone, type AddressTextField } from './address';
import { defineEndpoint } from './endpoint';

export const goodsSchema = z.object({ id: z.string(), name: z.string(), image: z.string(), price: amountSchema, stock: intAtLeast(0) });

/** A text field of the address by api-schema/address.ts's rule, answered trimmed. */
const addressText = /* @__NO_SIDE_EFFECTS__ */ (field: AddressTextField) =>
  checked(z.string(), z.refine((value) => checkAddressText(field, value) === null, field), z.trim());

export const addressFieldsSchema = z.object({
  name: addressText('name'),
  phone: checked(z.string(), z.refine((value) => checkPhone(value) === null, 'phone'), z.trim()),
  region: addressText('region'),
  detail: addressText('detail'),
  isDefault: z.boolean(),
});
export const deliveryAddressSchema = z.extend(addressFieldsSchema, { deliveryId: z.string() });
export type DeliveryAddress = z.infer<typeof deliveryAddressSchema>;

/**
 * An order's status: `paid` (to ship), `shipped` (with carrier and tracking number), `cancelled` (by an operator
 * before shipping; the amount is back in the member's credit and the units in stock, docs/API.md "Operators:
 * orders"). `pending` and `failed` are never written today.
 */
export const orderStatusSchema = z.enum(['pending', 'paid', 'shipped', 'failed', 'cancelled']);
const deliveryIdSchema = checked(z.string(), z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'deliveryId'));

/** Goods names are in the member's language (an extension of docs/API.md: `lang`, zh by default, as for notices). */
const langShape = { lang: z._default(langSchema, 'zh') };

export const goodsList = defineEndpoint({
  method: 'GET', path: '/api/goods/list', access: 'public', summary: 'Goods (added)',
  query: z.extend(pageQuerySchema, langShape), body: undefined, result: pageOf(goodsSchema),
});
export const goodsDetail = defineEndpoint({
  method: 'GET', path: '/api/goods/detail', access: 'public', summary: 'One goods item (added)',
  query: z.object({ id: checked(z.string(), z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'id')), ...langShape }), body: undefined, result: goodsSchema,
});
export const deliveryList = defineEndpoint({
  method: 'GET', path: '/api/member/delivery/list', access: 'member', summary: 'Own shipping addresses (added)',
  query: undefined, body: undefined, result: z.object({ list: z.array(deliveryAddressSchema) }),
});
export const deliveryAdd = defineEndpoint({
  method: 'POST', path: '/api/member/delivery/add', access: 'member',
  summary: 'Add a shipping address; at most once per requestId when one is given (added)',
  // requestId (optional, an extension of docs/API.md): a save retried after a dropped answer adds the address once.
  query: undefined, body: z.strictObject({ ...addressFieldsSchema.shape, requestId: z.optional(requestIdSchema) }), result: deliveryAddressSchema,
});
export const deliveryEdit = defineEndpoint({
  method: 'POST', path: '/api/member/delivery/edit', access: 'member', summary: 'Edit an own shipping address (added)',
  query: undefined, body: z.strictObject({ ...addressFieldsSchema.shape, deliveryId: deliveryIdSchema }), result: deliveryAddressSchema,
});
export const deliveryDelete = defineEndpoint({
  method: 'POST', path: '/api/member/delivery/delete', access: 'member', summary: 'Delete an own shipping address (added)',
  query: undefined, body: z.strictObject({ deliveryId: deliveryIdSchema }), result: z.optional(z.strictObject({})),
});
export const orderSettle = defineEndpoint({
  method: 'POST', path: '/api/order/settle', access: 'member', summary: 'Pay for goods with credit; at most once per requestId (added)',
  query: undefined,
  body: z.strictObject({
    goodsId: checked(z.string(), z.minLength(1), z.maxLength(64)),
    quantity: checked(z.number(), z.int(), z.minimum(1), z.maximum(999)),
    deliveryId: deliveryIdSchema,
    requestId: requestIdSchema,
  }),
  result: z.object({ orderId: z.string(), amount: amountSchema, status: orderStatusSchema }),
});
/**
 * A member's order. Once shipped it carries `carrier`, `trackingNumber` and `shippedAt`; once cancelled,
 * `cancelledAt` (the refund's time: credit and stock went back with it).
 */
export const memberOrderSchema = z.object({
  orderId: z.string(),
  goods: goodsSchema,
  quantity: checked(z.number(), z.int()),
  amount: amountSchema,
  status: orderStatusSchema,
  address: deliveryAddressSchema,
  createdAt: isoDateSchema,
  carrier: z.optional(z.string()),
  trackingNumber: z.optional(z.string()),
  shippedAt: z.optional(isoDateSchema),
  cancelledAt: z.optional(isoDateSchema),
});
export type MemberOrder = z.infer<typeof memberOrderSchema>;

export const orderList = defineEndpoint({
  method: 'GET', path: '/api/order/list', access: 'member', summary: 'Own orders (added)',
  query: z.extend(pageQuerySchema, langShape), body: undefined,
  result: pageOf(memberOrderSchema),
});
