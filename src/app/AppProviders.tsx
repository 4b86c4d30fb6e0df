import { Suspense } from 'react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router-dom';
import type { DataRouter } from 'react-router-dom';
import { RootActorsProvider } from './RootActorsContext';
import type { RootActors } from './rootActors';

/**
 * The app's provider tree: translations, root actors, and the data router. main.tsx renders it with the browser
 * router; tests render it with a memory router, so both run the same tree.
 */
export function AppProviders({ i18n, actors, router }: { i18n: I18n; actors: RootActors; router: DataRouter }) {
  return (
    <I18nextProvider i18n={i18n}>
      <RootActorsProvider actors={actors}>
        <Suspense fallback={<p className="page-loading">…</p>}>
          <RouterProvider router={router} />
        </Suspense>
      </RootActorsProvider>
    </I18nextProvider>
  );
}
