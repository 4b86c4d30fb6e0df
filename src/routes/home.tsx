import { useSelector } from '@xstate/react';
import { PayCircleOutline, ShopbagOutline, TeamOutline, UserAddOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useRootActors } from '../app/RootActorsContext';
import { errorKey } from '../app/errorKey';
import { paths } from '../app/paths';
import { selectAuthError, selectAuthView, selectMember } from '../app/selectors';
import { BalanceCard } from '../components/BalanceCard';
import { ListState } from '../components/ListState';
import { ShortAddress } from '../components/ShortAddress';
import { ShortcutGrid } from '../components/ShortcutGrid';
import { LatestNotice } from './shared/LatestNotice';
import { Screen } from './shared/Screen';
import { useAppNavigate } from './shared/useAppNavigate';
import { useFreshProfile } from './shared/useFreshProfile';

/** /home — the signed-in landing: who is signed in, the balances, the team, and shortcuts into the member area. */
export function Component() {
  const { t, i18n } = useTranslation(['home', 'common']);
  const { auth } = useRootActors();
  const view = useSelector(auth, selectAuthView);
  const member = useSelector(auth, selectMember);
  const error = useSelector(auth, selectAuthError);
  const onNavigate = useAppNavigate();
  useFreshProfile();
  const locale = i18n.resolvedLanguage ?? 'zh';

  return (
    <Screen title={t('home:title')}>
      {view === 'loadingProfile' && !member ? <ListState state="loading" loadingLabel={t('common:status.loading')} rows={4} /> : null}
      {view === 'profileFailed' && error ? (
        <ListState
          state="error"
          title={t(`common:${errorKey(error)}`)}
          retryLabel={t('common:actions.retry')}
          onRetry={() => auth.send({ type: 'user.retry' })}
        />
      ) : null}
      {member ? (
        <>
          <p className="welcome">
            <span>{t('home:welcome')}</span> <ShortAddress address={member.address} />
          </p>
          <BalanceCard
            title={t('home:balances.title')}
            locale={locale}
            balances={[
              { label: t('home:balances.credit'), amount: member.creditBalance, symbol: 'CREDIT' },
              { label: t('home:balances.wpos'), amount: member.wposBalance, symbol: 'WPOS' },
            ]}
          />
          <dl className="stat-row">
            <div className="stat">
              <dt>{t('home:team.size')}</dt>
              <dd>{member.teamSize}</dd>
            </div>
            <div className="stat">
              <dt>{t('home:team.direct')}</dt>
              <dd>{member.directCount}</dd>
            </div>
          </dl>
        </>
      ) : null}
      <LatestNotice />
      <ShortcutGrid
        label={t('home:shortcuts.label')}
        onNavigate={onNavigate}
        items={[
          { href: paths.wpos.href(), label: t('home:shortcuts.wpos'), icon: <PayCircleOutline /> },
          { href: paths.team.href(), label: t('home:shortcuts.team'), icon: <TeamOutline /> },
          { href: paths.invitation.href(), label: t('home:shortcuts.invitation'), icon: <UserAddOutline /> },
          { href: paths.buyList.href(), label: t('home:shortcuts.buy'), icon: <ShopbagOutline /> },
        ]}
      />
    </Screen>
  );
}
