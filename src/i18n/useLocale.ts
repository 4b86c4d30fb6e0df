import { useTranslation } from 'react-i18next';

/**
 * The language the app shows, for number and date formats.
 *
 * @returns `zh` or `en` (zh until i18next has resolved one)
 * @example const locale = useLocale(); // 'en'
 */
export function useLocale(): string {
  const { i18n } = useTranslation();
  return i18n.resolvedLanguage ?? 'zh';
}
