import { setDefaultConfig } from 'antd-mobile/es/components/config-provider';
import zhCN from 'antd-mobile/es/locales/zh-CN';
import type { i18n as I18n } from 'i18next';

/**
 * antd-mobile's own texts (clear, cancel, "no more") follow the app's language. Its global default config is set
 * instead of a ConfigProvider so that imperative Toast and Dialog follow too, and so that the English texts load
 * only for members who read English: zh-CN is antd-mobile's built-in default and costs nothing extra, en-US is
 * fetched on demand (about 1.2 KiB gzip kept out of /login's first load).
 *
 * @param i18n - the app's i18next instance
 * @example
 * followLanguage(i18n); // before i18n.init()
 */
export function followLanguage(i18n: I18n): void {
  i18n.on('languageChanged', (language) => {
    if (!language.startsWith('en')) {
      setDefaultConfig({ locale: zhCN });
      return;
    }
    import('antd-mobile/es/locales/en-US')
      .then(({ default: enUS }) => {
        // The member may have switched back while it loaded.
        if (i18n.resolvedLanguage?.startsWith('en')) setDefaultConfig({ locale: enUS });
      })
      .catch((error: unknown) => console.error('antd-mobile English texts not loaded', error));
  });
}
