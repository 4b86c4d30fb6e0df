import * as z from 'zod/mini';
import { addressSchema, amountSchema, balanceSchema, checked, isoDateSchema, langSchema, pageOf, pageQuerySchema, signedAmountSchema } from './primitives';
import { defineEndpoint } from './endpoint';

/** wallet_addEthereumChain parameters, less chainId (EIP-3085). */
export const chainParamsSchema = z.object({
  chainName: checked(z.string(), z.minLength(1)),
  nativeCurrency: z.object({
    name: checked(z.string(), z.minLength(1)),
    symbol: checked(z.string(), z.minLength(2), z.maxLength(6)),
    decimals: checked(z.number(), z.int(), z.minimum(0), z.maximum(36)),
  }),
  rpcUrls: checked(z.array(z.url()), z.minLength(1)),
  blockExplorerUrls: z.optional(z.array(z.url())),
});
export type ChainParams = z.infer<typeof chainParamsSchema>;

/** Why payouts paused (server/chain/payer/pause.ts): members see the cause translated, the desk its detail too. */
export const pauseCauseSchema = z.enum(['reconcile', 'lostPayment', 'unknownPayment', 'journal', 'chainStale']);

export const dappParamSchema = z.object({
  chainId: checked(z.number(), z.int(), z.positive()),
  chain: chainParamsSchema,
  minWithdraw: amountSchema,
  maxWithdraw: amountSchema,
  withdrawFee: balanceSchema,
  dailyWithdrawCap: amountSchema,
  exchangeRate: amountSchema,
  minTransfer: amountSchema,
  siweDomain: checked(z.string(), z.minLength(1)),
  siweStatement: z.string(),
  /** Credit on chain (docs/API.md): the ERC-20 that backs CREDIT, where top-ups go, blocks on top before they count. */
  token: z.optional(z.object({ address: addressSchema, symbol: checked(z.string(), z.minLength(1), z.maxLength(11)), decimals: checked(z.number(), z.int(), z.minimum(6), z.maximum(36)) })),
  treasury: z.optional(addressSchema),
  confirmations: z.optional(checked(z.number(), z.int(), z.minimum(0))),
  /** Withdrawals are paid later: payouts paused on doubt since `since`, for these causes (added; absent while they go on). */
  withdrawalsPaused: z.optional(z.object({ since: isoDateSchema, causes: z.array(pauseCauseSchema) })),
});
export type DappParam = z.infer<typeof dappParamSchema>;

export const dappParam = defineEndpoint({
  method: 'GET',
  path: '/api/dapp/dappParam',
  access: 'public',
  summary: 'App config: chain, limits, sign-in domain',
  query: undefined,
  body: undefined,
  result: dappParamSchema,
});

const langShape = { lang: z._default(langSchema, 'zh') };
const langQuery = z.object(langShape);

export const queryPagePlatformNotice = defineEndpoint({
  method: 'GET',
  path: '/api/dapp/queryPagePlatformNotice',
  access: 'public',
  summary: 'Published announcements, pinned first, then newest first',
  query: z.extend(pageQuerySchema, langShape),
  body: undefined,
  result: pageOf(
    z.object({
      noticeId: z.string(),
      title: z.string(),
      summary: z.string(),
      publishedAt: isoDateSchema,
      /** True when an operator pinned it (absent otherwise): pinned notices come first (added). */
      pinned: z.optional(z.boolean()),
    }),
  ),
});

export const noticeDetail = defineEndpoint({
  method: 'GET',
  path: '/api/dapp/noticeDetail',
  access: 'public',
  summary: 'One announcement (content is HTML; the client sanitises it)',
  query: z.object({ noticeId: checked(z.string(), z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'noticeId')), ...langShape }),
  body: undefined,
  result: z.object({ noticeId: z.string(), title: z.string(), content: z.string(), publishedAt: isoDateSchema }),
});

export const aboutOur = defineEndpoint({
  method: 'GET',
  path: '/api/dapp/aboutOur',
  access: 'public',
  summary: 'The about page (content is HTML)',
  query: langQuery,
  body: undefined,
  result: z.object({ title: z.string(), content: z.string() }),
});

export const solbotList = defineEndpoint({
  method: 'GET',
  path: '/api/dapp/solbotList',
  access: 'public',
  summary: 'Bots, newest first (added)',
  query: pageQuerySchema,
  body: undefined,
  result: pageOf(
    z.object({
      id: z.string(),
      name: z.string(),
      /** "running", "paused" or "stopped" today; a client shows any other value as an unknown status. */
      status: z.string(),
      /** Profit in percent, signed ("12.5" is 12.5 %, "-3.2" a loss). */
      profitRate: signedAmountSchema,
      createdAt: isoDateSchema,
    }),
  ),
});
