import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { Suspense, lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { useRootActors } from '../app/RootActorsContext';
import { paths } from '../app/paths';
import { selectAccess } from '../app/selectors';
import { ErrorText } from '../components/ErrorText';
import { LoadingSkeleton } from '../components/LoadingSkeleton';
import { Screen } from './shared/Screen';

// Members only: /login never shows the tab bar, so its code and icons load with the first member page.
const MemberTabBar = lazy(() => import('./shared/MemberTabBar'));

/** The one root layout route (spec section 2): the phone column and, for members, the tab bar. */
export function RootLayout() {
  const { auth } = useRootActors();
  const access = useSelector(auth, selectAccess);
  return (
    <div className="app-shell">
      <main className="app-main">
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      {access === 'member' ? (
        <Suspense fallback={null}>
          <MemberTabBar />
        </Suspense>
      ) : null}
    </div>
  );
}

/** Shown while a page module loads. */
export function PageLoading() {
  const { t } = useTranslation('common');
  return (
    <div className="page-loading">
      <LoadingSkeleton label={t('status.loading')} />
    </div>
  );
}

/**
 * Any error thrown while loading or rendering a route: a translated message and a way home, never a blank page.
 * It is in the first load, so it stays light (no ErrorBlock and its illustrations).
 */
export function RouteError() {
  const { t } = useTranslation('common');
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <Screen title={notFound ? t('errors.notFound') : t('errors.crashed')}>
      <div className="card" role="alert">
        <ErrorText text={t('layout.error.description')} />
        <Button block color="primary" shape="rounded" onClick={() => window.location.assign(paths.home.href())}>
          {t('actions.goHome')}
        </Button>
      </div>
    </Screen>
  );
}
