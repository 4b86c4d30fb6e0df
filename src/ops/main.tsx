/**
 * The operators' desk's start-up (ops.html): a build of its own (scripts/vite/opsDeskPlugin.ts), so no
 * member ever downloads it. The member app's theme, components, wallet machine and texts, at the phone's scale on a
 * phone and at the 375 px design's scale on a wide screen, where the desk uses the whole width.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { followLanguage, loadComponentTexts } from '../i18n/componentLocale';
import { createI18n } from '../i18n/i18n';
import type { Namespace } from '../i18n/i18n';
import { installViewportScaling } from '../layout/viewport';
import { loadProviders, watchProvidersLazily } from '../wallet/loadDiscovery';
import { createDeskActors } from './deskActors';
import { DeskApp } from './DeskApp';
import { deskRoutes } from './deskRoutes';
import { createDeskStorage } from './deskStorage';
import 'antd-mobile/es/global';
import '../theme/theme.css';
import '../layout/global.css';
import '../app/app.css';
import '../app/screens.css';
import './ops.css';

/** The desk's type is the 375 px design's on every screen at least that wide. */
const deskScaleWidthPx = 375;

const container = document.getElementById('root');
if (!container) throw new Error('ops.html has no #root');
installViewportScaling(window, { maxWidthPx: deskScaleWidthPx });
// 'ops' is the desk's namespace; the member app's list of namespaces leaves it out, so its bundle does not name it
// (tests/i18n/opsLocales.test.ts checks its zh and en keys as locales.test.ts checks the member's).
const i18n = createI18n({ ns: ['ops' as Namespace] });
followLanguage(i18n);
// The desk's screens are all in its script: antd-mobile's texts follow the language from the start.
void loadComponentTexts();
i18n.on('languageChanged', (language) => document.documentElement.setAttribute('lang', i18n.resolvedLanguage ?? language));
void i18n.init();
// Development only, as in the member app (src/dev/demoWallet.ts): `?demoWallet` adds a demo wallet.
const demoWallet = import.meta.env.DEV
  ? import('../dev/demoWallet').then(({ installDemoWalletIfAsked }) => void installDemoWalletIfAsked(window)).catch((error: unknown) => console.error('demo wallet not installed', error))
  : undefined;
const actors = createDeskActors({
  storage: createDeskStorage(),
  loadProviders: async () => {
    await demoWallet;
    return loadProviders();
  },
  watchProviders: (onFound) => watchProvidersLazily(onFound),
  site: { domain: window.location.host, uri: window.location.origin },
});
const router = createBrowserRouter(deskRoutes);
createRoot(container).render(
  <StrictMode>
    <DeskApp i18n={i18n} actors={actors} router={router} />
  </StrictMode>,
);
