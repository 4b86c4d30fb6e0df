import { setDefaultConfig } from 'antd-mobile/es/components/config-provider';
import zhCN from 'antd-mobile/es/locales/zh-CN';
import type { i18n as I18n } from 'i18next';

/** The app's i18next instance, once followLanguage was called. */
let following: I18n | undefined;
/** Whether a screen that shows antd-mobile's texts has loaded (loadComponentTexts). */
let wanted = false;

/** Sets antd-mobile's texts for a language: zh-CN at once, en-US once a screen wants them (it is fetched). */
async function apply(i18n: I18n, language: string): Promise<void> {
  if (!language.startsWith('en')) {
    setDefaultConfig({ locale: zhCN });
    return;
  }
  if (!wanted) return;
  try {
    const { default: enUS } = await import('antd-mobile/es/locales/en-US');
    // The member may have switched back while it loaded.
    if (i18n.resolvedLanguage?.startsWith('en')) setDefaultConfig({ locale: enUS });
  } catch (error: unknown) {
    console.error('antd-mobile English texts not loaded', error);
  }
}

/**
 * antd-mobile's own texts (clear, cancel, "no more") follow the app's language. Its global default config is set
 * instead of a ConfigProvider so that imperative Toast and Dialog follow too. zh-CN is antd-mobile's built-in default
 * and costs nothing extra; en-US is fetched only when a screen that may show those texts loads (loadComponentTexts):
 * the sign-in page's components (buttons, skeletons) show none, so a first visit does not fetch it (1.5 KiB on the
 * wire, bench/README.md section 1).
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
 * the language change does, when i18next starts). Never rejects: without the English file the texts stay Chinese.
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
