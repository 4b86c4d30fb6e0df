import type { ErrorInfo } from '../../machines/shared/errorInfo';

/**
 * The translation key for an error a machine kept: API failures read `Common.{code}` (spec section 8), wallet
 * errors `wallet.errors.{name}`, sign-in and binding errors `auth.errors.{name}`; anything else `Common.unknown`.
 */
export function errorKey(error: ErrorInfo): string {
  if (error.name === 'ApiError' && error.code !== undefined) return `Common.${error.code}`;
  if (authErrorNames.has(error.name)) return `auth.errors.${error.name}`;
  if (error.name.endsWith('Error') && error.name !== 'UnknownError') return `wallet.errors.${error.name}`;
  return 'Common.unknown';
}

const authErrorNames = new Set(['WalletChangedError', 'InviteCodeInvalidError']);
