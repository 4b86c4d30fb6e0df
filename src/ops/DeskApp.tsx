import type { i18n as I18n } from 'i18next';
import { Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router-dom';
import type { DataRouter } from 'react-router-dom';
import { DeskActorsProvider } from './DeskContext';
import type { DeskActors } from './deskActors';

/** The desk's provider tree; main.tsx renders it with the browser router, tests with a memory router. */
export function DeskApp({ i18n, actors, router }: { i18n: I18n; actors: DeskActors; router: DataRouter }) {
  return (
    <I18nextProvider i18n={i18n}>
      <DeskActorsProvider actors={actors}>
        <Suspense fallback={<p className="page-loading">…</p>}>
          <RouterProvider router={router} />
        </Suspense>
      </DeskActorsProvider>
    </I18nextProvider>
  );
}
