/**
 * Start-up: viewport scaling, the data router (in three tasks: src/app/browserRouter.ts), translations, the root
 * actors (wallet, auth, config), then the first render. The steps after the script's evaluation (the router, the
 * texts, each root actor's creation and start) run in tasks of their own and the first render is a transition React
 * splits into slices, so the phone's main thread is not blocked for the whole start-up at once (Lighthouse's Total
 * Blocking Time counts the part of every task over 50 ms; bench/lighthouse.ts measures it).
 */
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/AppProviders';
import { createBrowserRouterInSteps } from './app/browserRouter';
import { createRootActorsInSteps } from './app/rootActors';
import { matchedNamespaces, routes } from './app/routes';
import { followLanguage } from './i18n/componentLocale';
import { readFirstTexts } from './i18n/firstTexts';
import { createI18n } from './i18n/i18n';
import { installViewportScaling } from './layout/viewport';
import { nextTask } from './scheduling/nextTask';
import { createBrowserStorage } from './storage/browserStorage';
import { loadProviders, watchProvidersLazily } from './wallet/loadDiscovery';
// antd-mobile's variables and base styles first, then our theme over them, then layout and component styles.
import 'antd-mobile/es/global';
import './theme/theme.css';
import './layout/global.css';
import './app/app.css';

async function start(container: HTMLElement): Promise<void> {
  installViewportScaling(window);
  await nextTask();
  const router = await createBrowserRouterInSteps(routes, nextTask);
  await nextTask();
  // Only the first page's texts load at start (and only its language's): the rest load with their screens. The
  // sign-in page brings its own in the document.
  const i18n = createI18n({ ns: matchedNamespaces(router.state.matches), firstTexts: readFirstTexts(document) });
  followLanguage(i18n);
  // Before init: with the texts already in the document, init changes the language at once. The page's language is
  // the texts' own ('en' for en-US), as the server writes it, so a right guess leaves the attribute (and the
  // styles that depend on it) alone.
  i18n.on('languageChanged', (language) => document.documentElement.setAttribute('lang', i18n.resolvedLanguage ?? language));
  // Creating i18next with its plugins, then its start (detection, the texts, the language change), in two tasks.
  await nextTask();
  void i18n.init();

  // Development only (src/dev/demoWallet.ts): `?demoWallet` adds a demo wallet before the app looks for wallets.
  // import.meta.env.DEV is false in a production build, so the bundler drops this import.
  const demoWallet = import.meta.env.DEV
    ? import('./dev/demoWallet')
        .then(({ installDemoWalletIfAsked }) => void installDemoWalletIfAsked(window))
        .catch((error: unknown) => console.error('demo wallet not installed', error))
    : undefined;

  await nextTask();
  const actors = await createRootActorsInSteps(
    {
      storage: createBrowserStorage(),
      translate: (key) => i18n.t(key),
      loadProviders: async () => {
        await demoWallet;
        return loadProviders();
      },
      watchProviders: (onFound) => watchProvidersLazily(onFound),
      site: { domain: window.location.host, uri: window.location.origin },
    },
    nextTask,
  );

  // The sign-in page arrives with its title and welcome already in #root (server/plugins/loginShell.ts): let the
  // browser paint them before the first render replaces them, even when the script was quicker than the first frame.
  await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
  await nextTask();
  const root = createRoot(container);
  // Creating the root adds React's listeners for every event: a task of its own as well.
  await nextTask();
  startTransition(() =>
    root.render(
      <StrictMode>
        <AppProviders i18n={i18n} actors={actors} router={router} />
      </StrictMode>,
    ),
  );
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
void start(container);
