import { z } from 'zod';
import { amountSchema, isoDateSchema, langSchema, pageOf, pageQuerySchema } from './primitives';
import { defineEndpoint } from './endpoint';

/** wallet_addEthereumChain parameters, less chainId (EIP-3085). */
export const chainParamsSchema = z.object({
  chainName: z.string().min(1),
  nativeCurrency: z.object({ name: z.string().min(1), symbol: z.string().min(2).max(6), decimals: z.number().int().min(0).max(36) }),
  rpcUrls: z.array(z.url()).min(1),
  blockExplorerUrls: z.array(z.url()).optional(),
});
export type ChainParams = z.infer<typeof chainParamsSchema>;

export const dappParamSchema = z.object({
  chainId: z.number().int().positive(),
  chain: chainParamsSchema,
  minWithdraw: amountSchema,
  maxWithdraw: amountSchema,
  withdrawFee: amountSchema,
  dailyWithdrawCap: amountSchema,
  exchangeRate: amountSchema,
  minTransfer: amountSchema,
  siweDomain: z.string().min(1),
  siweStatement: z.string(),
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

const langQuery = z.object({ lang: langSchema.default('zh') });

export const queryPagePlatformNotice = defineEndpoint({
  method: 'GET',
  path: '/api/dapp/queryPagePlatformNotice',
  access: 'public',
  summary: 'Announcements, newest first',
  query: pageQuerySchema.extend(langQuery.shape),
  body: undefined,
  result: pageOf(z.object({ noticeId: z.string(), title: z.string(), summary: z.string(), publishedAt: isoDateSchema })),
});

export const noticeDetail = defineEndpoint({
  method: 'GET',
  path: '/api/dapp/noticeDetail',
  access: 'public',
  summary: 'One announcement (content is HTML; the client sanitises it)',
  query: z.object({ noticeId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'noticeId') }).extend(langQuery.shape),
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
  summary: 'Bots (added)',
  query: pageQuerySchema,
  body: undefined,
  result: pageOf(z.object({ id: z.string(), name: z.string(), status: z.string(), profitRate: amountSchema, createdAt: isoDateSchema })),
});
