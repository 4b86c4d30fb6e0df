import { describe, expect, it } from 'vitest';
import { transactionErrorNames } from '../../machines/credit/transactionErrors';
import { createClient, custom, InternalRpcError, SwitchChainError, UnknownRpcError, UserRejectedRequestError } from 'viem';
import { signMessage, switchChain } from 'viem/actions';
import {
  ChainParamsMissingError,
  InsufficientFundsError,
  UnauthorizedError,
  WrongChainError,
  NoAccountsError,
  ProviderNotFoundError,
  RequestPendingError,
  UnknownWalletError,
  UnsupportedMethodError,
  UnrecognizedChainError,
  UserRejectedError,
  WalletDisconnectedError,
  WalletTimeoutError,
  toWalletError,
  walletErrorNames,
} from './errors';

/** What the app's viem client (walletRequests.ts) throws when the wallet answers `raw` (custom transport, no retries). */
async function thrownThroughViem(raw: unknown, method: 'wallet_switchEthereumChain' | 'personal_sign' = 'wallet_switchEthereumChain') {
  const client = createClient({
    transport: custom(
      {
        request: async () => {
          throw raw;
        },
      },
      { retryCount: 0 },
    ),
  });
  try {
    if (method === 'personal_sign') {
      await signMessage(client, { account: '0x00000000000000000000000000000000000000a1', message: 'hello' });
    } else {
      await switchChain(client, { id: 56 });
    }
  } catch (error) {
    return error;
  }
  throw new Error('viem did not throw');
}

function coded(code: number, message: string, data?: unknown): Error & { code: number; data?: unknown } {
  return Object.assign(new Error(message), { code, data });
}

describe('wallet error classes', () => {
  it('behavior: each class has its fixed name, code and message', () => {
    expect(new ProviderNotFoundError().message).toBe('Phantom not installed');
    expect(new NoAccountsError().message).toBe('No accounts returned');
    const errors = [
      new ProviderNotFoundError(),
      new NoAccountsError(),
      new UserRejectedError(),
      new RequestPendingError(),
      new UnrecognizedChainError(),
      new WalletTimeoutError({ method: 'eth_requestAccounts', timeoutMs: 30_000 }),
      new ChainParamsMissingError({ chainId: 56 }),
      new WalletDisconnectedError(),
      new UnsupportedMethodError(),
      new UnknownWalletError({ code: 4300, message: 'Something else' }),
    ];
    expect(errors.map((error) => error.name)).toEqual([...walletErrorNames]);
    const transactionErrors = [new InsufficientFundsError(), new WrongChainError(), new UnauthorizedError()];
    expect(transactionErrors.map((error) => [error.name, error.code, error.message])).toEqual([
      ['InsufficientFundsError', undefined, 'Not enough funds for this transaction.'],
      ['WrongChainError', undefined, "The wallet is on another network than the app's."],
      ['UnauthorizedError', 4100, 'The wallet has not authorised this site.'],
    ]);
    expect(transactionErrors.map((error) => error.name)).toEqual([...transactionErrorNames]);
    expect(errors.map((error) => [error.name, error.code, error.message])).toMatchInlineSnapshot(`
      [
        [
          "ProviderNotFoundError",
          undefined,
          "Phantom not installed",
        ],
        [
          "NoAccountsError",
          undefined,
          "No accounts returned",
        ],
        [
          "UserRejectedError",
          4001,
          "The request was rejected in the wallet.",
        ],
        [
          "RequestPendingError",
          -32002,
          "A request is already waiting in the wallet.",
        ],
        [
          "UnrecognizedChainError",
          4902,
          "The wallet does not recognise the chain.",
        ],
        [
          "WalletTimeoutError",
          undefined,
          "The wallet did not answer in time.

      Details: eth_requestAccounts got no answer within 30000 ms.",
        ],
        [
          "ChainParamsMissingError",
          undefined,
          "The chain is unknown to the wallet and there are no parameters to add it.

      Details: Chain id: 56.",
        ],
        [
          "WalletDisconnectedError",
          4900,
          "The wallet disconnected.",
        ],
        [
          "UnsupportedMethodError",
          4200,
          "The wallet does not support this request.",
        ],
        [
          "UnknownWalletError",
          4300,
          "Something else",
        ],
      ]
    `);
  });

  it('behavior: an unknown error without a message gets a generic one', () => {
    expect(new UnknownWalletError().message).toMatchInlineSnapshot(`"An unknown wallet error occurred."`);
  });
});

describe('toWalletError, raw provider errors', () => {
  it('behavior: 4001 becomes UserRejectedError with the wallet words as details', () => {
    const error = toWalletError(coded(4001, 'User rejected the request.'));
    expect(error).toBeInstanceOf(UserRejectedError);
    expect(error.message).toMatchInlineSnapshot(`
      "The request was rejected in the wallet.

      Details: User rejected the request."
    `);
  });

  it('behavior: -32002 becomes RequestPendingError', () => {
    const error = toWalletError({ code: -32002, message: 'Already processing eth_requestAccounts. Please wait.' });
    expect(error).toBeInstanceOf(RequestPendingError);
    expect(error.code).toBe(-32002);
  });

  it('behavior: 4902 becomes UnrecognizedChainError', () => {
    expect(toWalletError({ code: 4902, message: 'Unrecognized chain.' })).toBeInstanceOf(UnrecognizedChainError);
  });

  it('behavior: MetaMask Mobile -32603 with data.originalError.code 4902 becomes UnrecognizedChainError', () => {
    const raw = coded(-32603, 'Internal JSON-RPC error.', { originalError: { code: 4902, message: 'x' } });
    const error = toWalletError(raw);
    expect(error).toBeInstanceOf(UnrecognizedChainError);
    expect(error.cause).toBe(raw);
  });

  it.each([
    'Unrecognized chain ID "0x38". Try adding the chain using wallet_addEthereumChain first.',
    'Unrecognised chain',
    'Chain 0x38 has not been added to the wallet',
    'chain not added',
    'Unknown chain id: 56',
  ])('behavior: -32603 saying "%s" becomes UnrecognizedChainError', (message) => {
    expect(toWalletError(coded(-32603, message))).toBeInstanceOf(UnrecognizedChainError);
  });

  it('behavior: a rejection stays a rejection even when its text mentions an unknown chain', () => {
    expect(toWalletError(coded(4001, 'User rejected adding the unknown chain'))).toBeInstanceOf(UserRejectedError);
  });

  it.each([4900, 4901])('behavior: %i becomes WalletDisconnectedError keeping the code', (code) => {
    const error = toWalletError({ code, message: 'Disconnected' });
    expect(error).toBeInstanceOf(WalletDisconnectedError);
    expect(error.code).toBe(code);
  });

  it('behavior: a node that says "insufficient funds" or "exceeds balance" is InsufficientFundsError; 4100 stays unknown here', () => {
    expect(toWalletError({ code: 4100, message: 'The requested account has not been authorized.' })).toBeInstanceOf(UnknownWalletError);
    expect(toWalletError({ code: -32603, message: 'insufficient funds for gas * price + value' })).toBeInstanceOf(InsufficientFundsError);
    expect(toWalletError({ code: -32603, message: 'execution reverted: ERC20: transfer amount exceeds balance' })).toBeInstanceOf(InsufficientFundsError);
    expect(toWalletError({ code: -32603, message: 'execution reverted' })).toBeInstanceOf(UnknownWalletError);
  });

  it('behavior: any other code becomes UnknownWalletError with the wallet code and message', () => {
    const error = toWalletError({ code: 4300, message: 'The requested account has not been authorized.' });
    expect(error).toBeInstanceOf(UnknownWalletError);
    expect([error.code, error.message]).toMatchInlineSnapshot(`
      [
        4300,
        "The requested account has not been authorized.",
      ]
    `);
  });

  it.each([
    [4200, 'The Provider does not support the requested method.'],
    [-32601, 'The method "wallet_switchEthereumChain" does not exist / is not available.'],
  ])('behavior: %i becomes UnsupportedMethodError keeping the code', (code, message) => {
    const error = toWalletError({ code, message });
    expect(error).toBeInstanceOf(UnsupportedMethodError);
    expect([error.code, error.shortMessage, error.details]).toEqual([code, 'The wallet does not support this request.', message]);
  });

  it('behavior: -32603 without a chain hint stays unknown', () => {
    const error = toWalletError(coded(-32603, 'Internal JSON-RPC error.'));
    expect(error).toBeInstanceOf(UnknownWalletError);
    expect(error.code).toBe(-32603);
  });

  it('behavior: strings, undefined and code-less errors become UnknownWalletError', () => {
    expect([toWalletError('boom').message, toWalletError(undefined).message, toWalletError(new Error('x')).code]).toMatchInlineSnapshot(`
      [
        "boom",
        "An unknown wallet error occurred.",
        undefined,
      ]
    `);
  });

  it('behavior: a WalletError passes through unchanged', () => {
    const error = new NoAccountsError();
    expect(toWalletError(error)).toBe(error);
  });

  it('behavior: a cause cycle does not loop', () => {
    const a: { code: number; cause?: unknown } = { code: 4001 };
    a.cause = { cause: a };
    expect(toWalletError(a)).toBeInstanceOf(UserRejectedError);
  });
});

describe('toWalletError, errors as viem throws them', () => {
  it('behavior: 4001 wrapped in viem UserRejectedRequestError', async () => {
    const thrown = await thrownThroughViem(coded(4001, 'User rejected the request.'));
    expect(thrown).toBeInstanceOf(UserRejectedRequestError);
    expect(toWalletError(thrown)).toBeInstanceOf(UserRejectedError);
  });

  it('behavior: 4001 from personal_sign through client.signMessage', async () => {
    const thrown = await thrownThroughViem({ code: 4001, message: 'User denied message signature.' }, 'personal_sign');
    const error = toWalletError(thrown);
    expect(error).toBeInstanceOf(UserRejectedError);
    expect(error.details).toBe('User denied message signature.');
  });

  it('behavior: -32002 wrapped in viem ResourceUnavailableRpcError', async () => {
    const thrown = await thrownThroughViem({ code: -32002, message: 'Already processing eth_requestAccounts. Please wait.' });
    expect(toWalletError(thrown)).toBeInstanceOf(RequestPendingError);
  });

  it('behavior: 4902 wrapped in viem SwitchChainError', async () => {
    const thrown = await thrownThroughViem(coded(4902, 'Unrecognized chain ID "0x38".'));
    expect(thrown).toBeInstanceOf(SwitchChainError);
    expect(toWalletError(thrown)).toBeInstanceOf(UnrecognizedChainError);
  });

  it('behavior: MetaMask Mobile nested 4902 inside viem InternalRpcError', async () => {
    const thrown = await thrownThroughViem(coded(-32603, 'Internal JSON-RPC error.', { originalError: { code: 4902 } }));
    expect(thrown).toBeInstanceOf(InternalRpcError);
    expect(toWalletError(thrown)).toBeInstanceOf(UnrecognizedChainError);
  });

  it('behavior: -32603 "Unrecognized chain ID" inside viem InternalRpcError', async () => {
    const thrown = await thrownThroughViem({ code: -32603, message: 'Unrecognized chain ID "0x38".' });
    expect(toWalletError(thrown)).toBeInstanceOf(UnrecognizedChainError);
  });

  it('behavior: an unknown code keeps the wallet code, not viem -1', async () => {
    const thrown = await thrownThroughViem({ code: 1234, message: 'Wallet is locked' });
    expect(thrown).toBeInstanceOf(UnknownRpcError);
    const error = toWalletError(thrown);
    expect(error).toBeInstanceOf(UnknownWalletError);
    expect([error.code, error.message]).toMatchInlineSnapshot(`
      [
        1234,
        "Wallet is locked",
      ]
    `);
  });

  it('behavior: a code-less throw through viem has no code', async () => {
    const error = toWalletError(await thrownThroughViem(new Error('socket closed')));
    expect([error.name, error.code, error.message]).toMatchInlineSnapshot(`
      [
        "UnknownWalletError",
        undefined,
        "socket closed",
      ]
    `);
  });
});
