import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useRootActors } from '../app/RootActorsContext';
import { errorKey } from '../app/errorKey';
import { paths } from '../app/paths';
import { selectAuthError, selectAuthView, selectUserInfo } from '../app/selectors';
import { Button } from '../components/Button';
import { ErrorText } from '../components/ErrorText';
import { Page } from '../components/Page';
import { ShortAddress } from '../components/ShortAddress';
import { StatusPanel } from '../components/StatusPanel';

/** /home — the signed-in landing: who is signed in, the balances, and the way to the member area. */
export function Component() {
  const { t } = useTranslation(['home', 'common']);
  const { auth } = useRootActors();
  const view = useSelector(auth, selectAuthView);
  const userInfo = useSelector(auth, selectUserInfo);
  const error = useSelector(auth, selectAuthError);
  const field = (name: string) => {
    const value = userInfo?.[name];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : '—';
  };

  return (
    <Page title={t('home:title')}>
      {view === 'loadingProfile' ? <StatusPanel message={t('common:status.loading')} /> : null}
      {view === 'profileFailed' && error ? (
        <div>
          <ErrorText text={t(`common:${errorKey(error)}`)} />
          <Button variant="secondary" onClick={() => auth.send({ type: 'user.retry' })}>
            {t('common:actions.retry')}
          </Button>
        </div>
      ) : null}
      {userInfo ? (
        <>
          <p className="welcome">
            {t('home:welcome')} <ShortAddress address={userInfo.address} />
          </p>
          <dl className="balances">
            <div>
              <dt>{t('home:balances.credit')}</dt>
              <dd>{field('creditBalance')}</dd>
            </div>
            <div>
              <dt>{t('home:balances.wpos')}</dt>
              <dd>{field('wposBalance')}</dd>
            </div>
            <div>
              <dt>{t('home:balances.team')}</dt>
              <dd>{field('teamSize')}</dd>
            </div>
          </dl>
        </>
      ) : null}
      <nav className="shortcuts" aria-label={t('home:shortcuts.label')}>
        <Link to={paths.invitation.href()}>{t('home:shortcuts.invitation')}</Link>
        <Link to={paths.announcement.href()}>{t('home:shortcuts.announcements')}</Link>
        <Link to={paths.me.href()}>{t('home:shortcuts.me')}</Link>
      </nav>
    </Page>
  );
}
