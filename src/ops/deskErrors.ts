import type { TFunction } from 'i18next';
import type { ErrorInfo } from '../../machines/shared/errorInfo';
import { errorKey } from '../app/errorKey';

/**
 * An error as the desk says it: the desk's own text for an API code where an operator needs other words than a
 * member (ops:errors.<code>: 3006, 3008, 1006, ...), else the member app's (common).
 */
export function deskErrorText(t: TFunction, exists: (key: string) => boolean, error: ErrorInfo | null): string {
  if (!error) return t('common:Common.unknown');
  const own = error.code !== undefined ? `ops:errors.${error.code}` : null;
  if (own && error.name === 'ApiError' && exists(own)) return t(own);
  return t(`common:${errorKey(error)}`);
}
