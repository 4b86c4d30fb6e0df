import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Navigate, Outlet, useLocation } from 'react-router-dom';
import type { OperatorRole } from '../../api-schema/endpoint';
import { selectOperator, selectOpsSessionView } from '../../machines/ops/opsSelectors';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { ListState } from '../components/ListState';
import { ShortAddress } from '../components/ShortAddress';
import { useDesk } from './DeskContext';
import { canSee, deskScreens } from './deskScreens';
import type { DeskScreenId } from './deskScreens';
import { FiringAlerts } from './parts/FiringAlerts';
import { SignIn } from './SignIn';

/**
 * The desk's frame: its bar (the operator's address and roles, the language, sign out), its menu of the screens
 * the operator's roles see (a side menu at 1280 px, a row that scrolls sideways on a phone), and the screen. Signed
 * out, the sign-in instead.
 */
export function DeskShell() {
  const { t, i18n } = useTranslation('ops');
  const { session } = useDesk();
  const view = useSelector(session, selectOpsSessionView);
  const operator = useSelector(session, selectOperator);
  const nextLanguage = i18n.resolvedLanguage === 'en' ? 'zh' : 'en';
  return (
    <div className="desk">
      <header className="desk-bar">
        <h1 className="desk-title">{t('shell.title')}</h1>
        <div className="desk-bar-end">
          {operator ? (
            <p className="desk-operator" aria-label={t('shell.operator')}>
              <ShortAddress address={operator.address} />
              {operator.roles.map((role) => (
                <span key={role} className="desk-role">
                  {t(`roles.${role}`)}
                </span>
              ))}
            </p>
          ) : null}
          <LanguageSwitch
            label={t('common:layout.switchLanguage')}
            lang={nextLanguage}
            ariaLabel={t('common:layout.language.switchTo', { language: t(`common:layout.language.${nextLanguage}`) })}
            onSwitch={() => void i18n.changeLanguage(nextLanguage)}
          />
          {operator ? (
            <Button size="small" fill="outline" shape="rounded" onClick={() => session.send({ type: 'user.signOut' })}>
              {t('shell.signOut')}
            </Button>
          ) : null}
        </div>
      </header>
      {view === 'signedIn' && operator ? (
        <div className="desk-main">
          <nav className="desk-nav" aria-label={t('shell.menu')}>
            {deskScreens
              .filter((screen) => canSee(operator.roles, screen))
              .map((screen) => (
                <NavLink key={screen.id} to={screen.path} className="desk-nav-link">
                  {t(`screens.${screen.id}`)}
                </NavLink>
              ))}
          </nav>
          <main className="desk-content">
            <FiringAlerts />
            <Suspense fallback={<ListState state="loading" loadingLabel={t('common:status.loading')} />}>
              <Outlet />
            </Suspense>
          </main>
        </div>
      ) : (
        <main className="desk-content">
          <SignIn />
        </main>
      )}
    </div>
  );
}

/** /ops: the first screen the operator's roles see. */
export function DeskHome() {
  const operator = useSelector(useDesk().session, selectOperator);
  const first = deskScreens.find((screen) => operator && canSee(operator.roles, screen));
  return <Navigate to={first?.path ?? '/ops/keys'} replace />;
}

/** A screen the operator's roles do not see says so (the server would refuse its calls: 1006). */
export function RoleGate({ screen, children }: { screen: DeskScreenId; children: React.ReactNode }) {
  const { t } = useTranslation('ops');
  const operator = useSelector(useDesk().session, selectOperator);
  const entry = deskScreens.find((item) => item.id === screen);
  const location = useLocation();
  if (!operator || !entry || canSee(operator.roles, entry)) return <>{children}</>;
  const roles = (entry.roles as readonly OperatorRole[]).map((role) => t(`roles.${role}`)).join(', ');
  return <ListState state="empty" title={t('shell.notYourRole', { roles })} description={location.pathname} />;
}
