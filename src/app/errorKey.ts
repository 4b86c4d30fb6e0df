import type { ErrorInfo } from '../../machines/shared/errorInfo';
import { WalletErrorNames } from '../../machines/wallet/walletErrorNames';

/**
 * The translation key for an error a machine kept: API failures read `Common.{code}` (spec section 8), wallet
 * errors the wallet machine names (walletErrorNames.ts) `wallet.errors.{name}`, sign-in and binding errors `auth.errors.{name}`; anything else `Common.unknown`.
 */
export function errorKey(error: ErrorInfo): string {
  if (error.name === 'ApiError' && error.code !== undefined) return `Common.${error.code}`;
  if (authErrorNames.has(error.name)) return `auth.errors.${error.name}`;
  if (walletErrorNames.has(error.name)) return `wallet.errors.${error.name}`;
  return 'Common.unknown';
}

const authErrorNames = new Set(['WalletChangedError', 'InviteCodeInvalidError']);
const walletErrorNames = new Set<string>(Object.values(WalletErrorNames));
