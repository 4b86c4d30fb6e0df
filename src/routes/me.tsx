import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useRootActors } from '../app/RootActorsContext';
import { paths } from '../app/paths';
import { selectUserInfo } from '../app/selectors';
import { Button } from '../components/Button';
import { Page } from '../components/Page';

/** /me — the member's address and invite code, and sign-out. */
export function Component() {
  const { t } = useTranslation(['me', 'common']);
  const { auth } = useRootActors();
  const userInfo = useSelector(auth, selectUserInfo);
  const inviteCode = typeof userInfo?.inviteCode === 'string' ? userInfo.inviteCode : '';

  return (
    <Page title={t('me:title')}>
      <dl className="details">
        <div>
          <dt>{t('me:address.label')}</dt>
          <dd className="mono" data-testid="me-address">
            {userInfo?.address ?? '—'}
          </dd>
        </div>
        <div>
          <dt>{t('me:inviteCode.label')}</dt>
          <dd className="mono" data-testid="me-invite-code">
            {inviteCode || '—'}
          </dd>
        </div>
      </dl>
      <nav className="shortcuts" aria-label={t('me:menu.label')}>
        <Link to={paths.invitation.href(inviteCode || undefined)}>{t('me:menu.invitation')}</Link>
        <Link to={paths.wpos.href()}>{t('me:menu.wpos')}</Link>
        <Link to={paths.solbotList.href()}>{t('me:menu.solbot')}</Link>
        <Link to={paths.announcement.href()}>{t('me:menu.announcement')}</Link>
        <Link to={paths.about.href()}>{t('me:menu.about')}</Link>
      </nav>
      <Button variant="secondary" onClick={() => auth.send({ type: 'user.signOut' })}>
        {t('me:signOut.label')}
      </Button>
    </Page>
  );
}
