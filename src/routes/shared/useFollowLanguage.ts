import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** The API's language for the member's: en, else zh (the fallback). */
export function apiLanguage(language: string | undefined): 'zh' | 'en' {
  return language?.startsWith('en') ? 'en' : 'zh';
}

/**
 * Calls `onChange` with the API language whenever the member switches language, so a page's content machine can
 * load again in it (an i18next event, not a render).
 *
 * @param onChange - e.g. (lang) => actor.send({ type: 'user.changeQuery', query: { lang } })
 * @returns the current API language
 * @example
 * const lang = useFollowLanguage((next) => notices.send({ type: 'user.changeQuery', query: { lang: next } }));
 */
export function useFollowLanguage(onChange: (lang: 'zh' | 'en') => void): 'zh' | 'en' {
  const { i18n } = useTranslation();
  useEffect(() => {
    const listener = (language: string) => onChange(apiLanguage(language));
    i18n.on('languageChanged', listener);
    return () => i18n.off('languageChanged', listener);
  }, [i18n, onChange]);
  return apiLanguage(i18n.resolvedLanguage);
}
