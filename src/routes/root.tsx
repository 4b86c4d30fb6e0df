import { useSelector } from '@xstate/react';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { useRootActors } from '../app/RootActorsContext';
import { paths } from '../app/paths';
import { selectAccess } from '../app/selectors';
import { Button } from '../components/Button';

/** The one root layout route (spec section 2): the phone column, language switch and, for members, the tab bar. */
export function RootLayout() {
  const { t, i18n } = useTranslation('common');
  const { auth } = useRootActors();
  const access = useSelector(auth, selectAccess);
  const nextLanguage = i18n.resolvedLanguage === 'en' ? 'zh' : 'en';
  return (
    <div className="app-shell">
      <header className="app-header">
        <span className="app-name">{t('layout.appName')}</span>
        <Button variant="link" lang={nextLanguage} onClick={() => void i18n.changeLanguage(nextLanguage)}>
          {t('layout.switchLanguage')}
        </Button>
      </header>
      <main className="app-main">
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      {access === 'member' ? (
        <nav className="tab-bar" aria-label={t('nav.label')}>
          <NavLink to={paths.home.href()}>{t('nav.home')}</NavLink>
          <NavLink to={paths.team.href()}>{t('nav.team')}</NavLink>
          <NavLink to={paths.buyList.href()}>{t('nav.buy')}</NavLink>
          <NavLink to={paths.me.href()}>{t('nav.me')}</NavLink>
        </nav>
      ) : null}
    </div>
  );
}

/** Shown while a page module loads. */
export function PageLoading() {
  const { t } = useTranslation('common');
  return (
    <p role="status" className="page-loading">
      {t('status.loading')}
    </p>
  );
}

/** Any error thrown while loading or rendering a route: a translated message and a way back, never a blank page. */
export function RouteError() {
  const { t } = useTranslation('common');
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <div className="page" role="alert">
      <h1 className="page-title">{notFound ? t('errors.notFound') : t('errors.crashed')}</h1>
      <Button onClick={() => window.location.assign(paths.home.href())}>{t('actions.goHome')}</Button>
    </div>
  );
}
