import type { i18n as I18n } from 'i18next';

/** The app's i18next instance, once followLanguage was called. */
let following: I18n | undefined;
/** Whether a screen that shows antd-mobile's texts has loaded (loadComponentTexts). */
let wanted = false;

const isEnglish = (language: string | undefined): boolean => language?.startsWith('en') ?? false;

/**
 * Sets antd-mobile's texts for a language, once a screen wants them. Its config module with the zh-CN texts
 * (antdTexts.ts) and the English texts are fetched then, not with the entry script: the sign-in page's components
 * (buttons, skeletons) read neither.
 */
async function apply(i18n: I18n, language: string): Promise<void> {
  if (!wanted) return;
  const english = isEnglish(language);
  try {
    const [{ setComponentTexts }, englishTexts] = await Promise.all([import('./antdTexts'), english ? import('antd-mobile/es/locales/en-US') : undefined]);
    // The member may have switched language while they loaded.
    if (isEnglish(i18n.resolvedLanguage) === english) setComponentTexts(englishTexts?.default);
  } catch (error: unknown) {
    console.error('antd-mobile texts not loaded', error);
  }
}

/**
 * antd-mobile's own texts (clear, cancel, "no more") follow the app's language. Its global default config is set
 * instead of a ConfigProvider so that imperative Toast and Dialog follow too. Nothing of antd-mobile's config or
 * texts is loaded until a screen that may show them loads (loadComponentTexts): the sign-in page shows none, so a
 * first visit fetches neither the config module with its built-in zh-CN texts nor en-US (bench/README.md section 1).
 *
 * @param i18n - the app's i18next instance
 * @example
 * followLanguage(i18n); // before i18n.init()
 */
export function followLanguage(i18n: I18n): void {
  following = i18n;
  i18n.on('languageChanged', (language) => void apply(i18n, language));
}

/**
 * Says that antd-mobile's texts are about to be shown, and loads them in the app's language if it is known (else
 * the language change does, when i18next starts). Never rejects: without the files antd-mobile's components show
 * their built-in Chinese texts.
 *
 * @returns resolves when the texts are set
 * @example
 * await loadComponentTexts(); // with a screen's code (src/app/routes.tsx)
 */
export function loadComponentTexts(): Promise<void> {
  wanted = true;
  const language = following?.resolvedLanguage;
  return following && language ? apply(following, language) : Promise.resolve();
}
