import type { ErrorInfo } from '../../machines/shared/errorInfo';
import { ApiErrorName, authErrorNames, walletErrorNames } from '../../machines/shared/errorNames';

/**
 * The translation key for an error a machine kept: API failures read `Common.{code}` (spec section 8), the wallet
 * errors of machines/shared/errorNames.ts `wallet.errors.{name}`, its sign-in and binding errors
 * `auth.errors.{name}`; anything else `Common.unknown`.
 */
export function errorKey(error: ErrorInfo): string {
  if (error.name === ApiErrorName && error.code !== undefined) return `Common.${error.code}`;
  if (authNames.has(error.name)) return `auth.errors.${error.name}`;
  if (walletNames.has(error.name)) return `wallet.errors.${error.name}`;
  return 'Common.unknown';
}

const authNames = new Set<string>(authErrorNames);
const walletNames = new Set<string>(walletErrorNames);
