/**
 * Start-up: viewport scaling, translations, the root actors (wallet, auth, config), then the data router.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { AppProviders } from './app/AppProviders';
import { createRootActors } from './app/rootActors';
import { routeNamespaces, routes } from './app/routes';
import { followLanguage } from './i18n/componentLocale';
import { createI18n } from './i18n/i18n';
import { installViewportScaling } from './layout/viewport';
import { createBrowserStorage } from './storage/browserStorage';
import { loadProviders, watchProvidersLazily } from './wallet/loadDiscovery';
// antd-mobile's variables and base styles first, then our theme over them, then layout and component styles.
import 'antd-mobile/es/global';
import './theme/theme.css';
import './layout/global.css';
import './app/app.css';

installViewportScaling(window);
// Only the first page's texts load at start (and only its language's): the rest load with their screens.
const i18n = createI18n({ ns: routeNamespaces(routes, window.location) });
followLanguage(i18n);
void i18n.init();
i18n.on('languageChanged', (language) => document.documentElement.setAttribute('lang', language));

// Development only (src/dev/demoWallet.ts): `?demoWallet` adds a demo wallet before the app looks for wallets.
// import.meta.env.DEV is false in a production build, so the bundler drops this import.
const demoWallet = import.meta.env.DEV
  ? import('./dev/demoWallet')
      .then(({ installDemoWalletIfAsked }) => void installDemoWalletIfAsked(window))
      .catch((error: unknown) => console.error('demo wallet not installed', error))
  : undefined;

const actors = createRootActors({
  storage: createBrowserStorage(),
  translate: (key) => i18n.t(key),
  loadProviders: async () => {
    await demoWallet;
    return loadProviders();
  },
  watchProviders: (onFound) => watchProvidersLazily(onFound),
  site: { domain: window.location.host, uri: window.location.origin },
});
const router = createBrowserRouter(routes);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
// The sign-in page arrives with its title and welcome already in #root (server/plugins/loginShell.ts): let the
// browser paint them before the first render replaces them, even when the script was quicker than the first frame.
requestAnimationFrame(() =>
  setTimeout(() =>
    createRoot(container).render(
      <StrictMode>
        <AppProviders i18n={i18n} actors={actors} router={router} />
      </StrictMode>,
    ),
  ),
);
