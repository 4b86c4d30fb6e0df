import * as z from 'zod/mini';
import { amountPattern, maxIntegerDigits, amountDecimals } from './amount';
import { amountSchema, balanceSchema, checked, intAtLeast, isoDateSchema, signedAmountSchema } from './primitives';
import { defineEndpoint } from './endpoint';

/**
 * The content calls of the operators' desk (docs/API.md, "Operators: content"; role `content`): notices in zh and
 * en (saved as drafts, sanitised by the server with the member app's rule, published, pinned, unpublished), the
 * about page, goods with their prices and stock, share pools and bots. Each act writes an audit row with before and
 * after. Amounts are decimal strings. Not part of the SPA.
 */

/** A notice's, goods item's or bot's id as the member API names it. */
const slugSchema = checked(z.string(), z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'id'));
const titleSchema = checked(z.string(), z.minLength(1), z.maxLength(200), z.refine((value) => value.trim() !== '', 'title'));
const nameSchema = checked(z.string(), z.minLength(1), z.maxLength(100), z.refine((value) => value.trim() !== '', 'name'));
/** HTML as the operator wrote it; the server keeps only what the member app's sanitiser lets through. */
const htmlSchema = checked(z.string(), z.minLength(1), z.maxLength(200_000));
/** An amount in a request that may be 0 (a pool's minimum holding). */
const amountOrZeroSchema = checked(z.string(), z.regex(amountPattern, 'amount'));
/** A signed amount in a request, at most 12 integer digits and 6 decimals (a bot's profit rate, in percent). */
const signedRequestAmountSchema = checked(
  z.string(),
  z.regex(new RegExp(`^-?(0|[1-9]\\d{0,${maxIntegerDigits - 1}})(\\.\\d{1,${amountDecimals}})?$`), 'profitRate'),
);

/** One translation of a notice: `body` is the sanitised HTML members receive. */
export const noticeTextSchema = z.object({ title: z.string(), summary: z.string(), body: z.string() });

/** A notice as the desk sees it, drafts too. `en` is null when the notice has no English (members reading en get zh). */
export const opsNoticeSchema = z.object({
  id: z.string(),
  /** Members see it (from `publishedAt` on). */
  published: z.boolean(),
  pinned: z.boolean(),
  /** When it was published; null for a draft or an unpublished notice. */
  publishedAt: z.nullable(isoDateSchema),
  zh: noticeTextSchema,
  en: z.nullable(noticeTextSchema),
});

/** What the operator writes: the summary, when left out, is the body's first 120 characters of text. */
const noticeTextInput = z.strictObject({
  title: titleSchema,
  summary: z.optional(checked(z.string(), z.maxLength(500))),
  body: htmlSchema,
});

/** The sanitised bodies exactly as members will receive them, and whether sanitising changed what was sent. */
const previewSchema = z.object({ zh: z.string(), en: z.nullable(z.string()), changedBySanitiser: z.boolean() });

export const opsNotices = defineEndpoint({
  method: 'GET',
  path: '/api/admin/content/notices',
  access: 'operator:content',
  summary: 'Every notice, drafts first, then pinned, then newest, in both languages (added)',
  query: undefined,
  body: undefined,
  result: z.object({ list: z.array(opsNoticeSchema) }),
});

export const opsNoticePut = defineEndpoint({
  method: 'POST',
  path: '/api/admin/content/notices/put',
  access: 'operator:content',
  summary:
    'Create a notice as a draft, or replace the texts of one (a published notice shows the new texts at once; publication and pin stay). ' +
    'Bodies are sanitised with the member app\'s rule; the answer has the preview. Leaving out `en` removes the English (added)',
  query: undefined,
  body: z.strictObject({ id: slugSchema, zh: noticeTextInput, en: z.optional(noticeTextInput) }),
  result: z.extend(opsNoticeSchema, { preview: previewSchema }),
});

export const opsNoticePublish = defineEndpoint({
  method: 'POST',
  path: '/api/admin/content/notices/publish',
  access: 'operator:content',
  summary:
    'Publish (dated now, unless already published), unpublish (members no longer see it) and pin or unpin a notice; 4004 for no such notice (added)',
  query: undefined,
  body: z.strictObject({ id: slugSchema, published: z.boolean(), pinned: z.boolean() }),
  result: opsNoticeSchema,
});

const aboutTextSchema = z.object({ title: z.string(), body: z.string() });
export const opsAboutSchema = z.object({ zh: z.nullable(aboutTextSchema), en: z.nullable(aboutTextSchema) });
const aboutTextInput = z.strictObject({ title: titleSchema, body: htmlSchema });

export const opsAbout = defineEndpoint({
  method: 'GET',
  path: '/api/admin/content/about',
  access: 'operator:content',
  summary: 'The about page in both languages (null where there is none) (added)',
  query: undefined,
  body: undefined,
  result: opsAboutSchema,
});

export const opsAboutPut = defineEndpoint({
  method: 'POST',
  path: '/api/admin/content/about/put',
  access: 'operator:content',
  summary: 'Replace the about page, sanitised with the member app\'s rule; leaving out `en` removes the English (members get zh) (added)',
  query: undefined,
  body: z.strictObject({ zh: aboutTextInput, en: z.optional(aboutTextInput) }),
  result: z.extend(opsAboutSchema, { preview: previewSchema }),
});

/** Stock limits: a goods item holds at most a billion units for sale. */
const stockSchema = checked(z.number(), z.int(), z.minimum(0), z.maximum(1_000_000_000));

export const opsGoodsSchema = z.object({
  id: z.string(),
  nameZh: z.string(),
  nameEn: z.string(),
  image: z.string(),
  price: balanceSchema,
  /** Units members can still buy (the goods' stock counter): paid orders have taken theirs already. */
  stock: intAtLeast(0),
  /** Units in paid orders not yet shipped: outside `stock`, so no stock change takes them. */
  held: intAtLeast(0),
  listed: z.boolean(),
  position: z.number(),
});

export const opsGoods = defineEndpoint({
  method: 'GET',
  path: '/api/admin/content/goods',
  access: 'operator:content',
  summary: 'Every goods item, unlisted ones too, in list order, with stock and the units paid orders hold (added)',
  query: undefined,
  body: undefined,
  result: z.object({ list: z.array(opsGoodsSchema) }),
});

export const opsGoodsPut = defineEndpoint({
  method: 'POST',
  path: '/api/admin/content/goods/put',
  access: 'operator:content',
  summary:
    'Create or edit a goods item: names, price, stock for sale, listed. A new item needs `image` (a file of /media/goods/) and goes last. ' +
    'With `stockWas`, a stock that changed meanwhile (a sale) is 3006 and nothing changes (added)',
  query: undefined,
  body: z.strictObject({
    id: slugSchema,
    nameZh: nameSchema,
    nameEn: nameSchema,
    image: z.optional(checked(z.string(), z.regex(/^\/media\/goods\/[a-z0-9][a-z0-9-]{0,63}\.(svg|png|jpg|webp)$/, 'image'))),
    price: amountSchema,
    stock: stockSchema,
    stockWas: z.optional(stockSchema),
    listed: z.boolean(),
    position: z.optional(checked(z.number(), z.int(), z.minimum(0), z.maximum(1_000_000))),
  }),
  result: opsGoodsSchema,
});

/** A share pool as the member API shows it (getSharePools), less the caller's share. */
export const opsPoolSchema = z.object({ id: z.string(), name: z.string(), totalAmount: balanceSchema, minHolding: balanceSchema });

export const opsPools = defineEndpoint({
  method: 'GET',
  path: '/api/admin/content/pools',
  access: 'operator:content',
  summary: 'The share pools, lowest minimum first (added)',
  query: undefined,
  body: undefined,
  result: z.object({ list: z.array(opsPoolSchema) }),
});

export const opsPoolPut = defineEndpoint({
  method: 'POST',
  path: '/api/admin/content/pools/put',
  access: 'operator:content,finance',
  summary:
    'Create a share pool (no `id`) or edit one: its name, daily amount (> 0) and minimum holding (≥ 0), in WPOS; from the next payout on. ' +
    "A new or changed daily amount is finance's under the operators' policy (act poolAmount: 1006 for content alone, 3009 above its cap); the pools pay only from the funded pools account. " +
    '4004 for no such pool, 1001 `name` for a name another pool has (added)',
  query: undefined,
  body: z.strictObject({
    id: z.optional(checked(z.string(), z.regex(/^[1-9]\d{0,8}$/, 'id'))),
    name: nameSchema,
    totalAmount: amountSchema,
    minHolding: amountOrZeroSchema,
  }),
  result: opsPoolSchema,
});

export const botStatusSchema = z.enum(['running', 'paused', 'stopped']);
export const opsBotSchema = z.object({ id: z.string(), name: z.string(), status: botStatusSchema, profitRate: signedAmountSchema, createdAt: isoDateSchema });

export const opsBots = defineEndpoint({
  method: 'GET',
  path: '/api/admin/content/bots',
  access: 'operator:content',
  summary: 'Every bot, newest first (added)',
  query: undefined,
  body: undefined,
  result: z.object({ list: z.array(opsBotSchema) }),
});

export const opsBotPut = defineEndpoint({
  method: 'POST',
  path: '/api/admin/content/bots/put',
  access: 'operator:content',
  summary: 'Create or edit a bot: name, status and profit rate (percent, signed decimal string) (added)',
  query: undefined,
  body: z.strictObject({ id: slugSchema, name: nameSchema, status: botStatusSchema, profitRate: signedRequestAmountSchema }),
  result: opsBotSchema,
});
