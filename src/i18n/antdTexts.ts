/**
 * antd-mobile's config and its built-in zh-CN texts, loaded on demand by componentLocale.ts. A module of the app's
 * own, imported only dynamically: importing antd-mobile's config module itself both ways made the bundler build its
 * namespace with runtime helpers it then moved to a file of their own, which the document preloads (753 B on the
 * wire of /login, bench/README.md section 1).
 */
import { setDefaultConfig } from 'antd-mobile/es/components/config-provider';
import zhCN from 'antd-mobile/es/locales/zh-CN';

/** antd-mobile's texts for one language; what `import('antd-mobile/es/locales/en-US')` gives as default. */
export type ComponentTexts = typeof zhCN;

/**
 * Sets the texts antd-mobile's components (and its imperative Toast and Dialog) show.
 *
 * @param english - antd-mobile's en-US texts, or undefined for its built-in zh-CN
 * @example
 * setComponentTexts(undefined); // zh-CN
 */
export function setComponentTexts(english: ComponentTexts | undefined): void {
  setDefaultConfig({ locale: english ?? zhCN });
}
