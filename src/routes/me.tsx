import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import Tag from 'antd-mobile/es/components/tag';
import {
  EnvironmentOutline,
  HistogramOutline,
  InformationCircleOutline,
  PayCircleOutline,
  SoundOutline,
  UserAddOutline,
  UserCircleOutline,
} from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useRootActors } from '../app/RootActorsContext';
import { paths } from '../app/paths';
import { selectMember } from '../app/selectors';
import { AddressText } from '../components/AddressText';
import { BalanceCard } from '../components/BalanceCard';
import { ListState } from '../components/ListState';
import { MenuList } from '../components/MenuList';
import { CreditEntries } from './credit/CreditEntries';
import { Screen } from './shared/Screen';
import { useAppNavigate } from './shared/useAppNavigate';
import { useFreshProfile } from './shared/useFreshProfile';
import { useCopy } from './shared/useCopy';

/** /me — the member's address, level, balances and invite code, the member-area menu, and sign-out. */
export function Component() {
  const { t, i18n } = useTranslation(['me', 'common']);
  const { auth } = useRootActors();
  const member = useSelector(auth, selectMember);
  const onNavigate = useAppNavigate();
  useFreshProfile();
  const { copy, feedback } = useCopy();
  const locale = i18n.resolvedLanguage ?? 'zh';

  return (
    <Screen title={t('me:title')}>
      {member ? (
        <>
          <section className="profile-card" aria-label={t('me:address.label')}>
            <UserCircleOutline className="profile-avatar" aria-hidden="true" />
            <div className="profile-main">
              <span className="visually-hidden" data-testid="me-address">
                {member.address}
              </span>
              <AddressText
                address={member.address}
                onCopy={() => copy('address', member.address)}
                copyLabel={t('me:address.copy')}
                feedback={feedback('address', t('me:address.copied'))}
              />
              <div className="profile-tags">
                <Tag color="primary" fill="outline">
                  {t('me:level.value', { level: member.level })}
                </Tag>
                <span className="profile-code">
                  {t('me:inviteCode.label')} <span data-testid="me-invite-code">{member.inviteCode}</span>
                </span>
              </div>
            </div>
          </section>
          <BalanceCard
            title={t('me:balances.title')}
            locale={locale}
            balances={[
              { label: t('me:balances.credit'), amount: member.creditBalance, symbol: 'CREDIT' },
              { label: t('me:balances.wpos'), amount: member.wposBalance, symbol: 'WPOS' },
            ]}
          />
          <CreditEntries />
        </>
      ) : (
        <ListState state="loading" loadingLabel={t('common:status.loading')} rows={3} />
      )}
      <MenuList
        label={t('me:menu.label')}
        onNavigate={onNavigate}
        items={[
          { href: paths.invitation.href(member?.inviteCode), label: t('me:menu.invitation'), icon: <UserAddOutline /> },
          { href: paths.wpos.href(), label: t('me:menu.wpos'), icon: <PayCircleOutline /> },
          { href: paths.solbotList.href(), label: t('me:menu.solbot'), icon: <HistogramOutline /> },
          { href: paths.announcement.href(), label: t('me:menu.announcement'), icon: <SoundOutline /> },
          { href: paths.shippingAddress.href(), label: t('me:menu.shippingAddress'), icon: <EnvironmentOutline /> },
          { href: paths.about.href(), label: t('me:menu.about'), icon: <InformationCircleOutline /> },
        ]}
      />
      <div className="form-actions">
        <Button block color="danger" fill="outline" shape="rounded" onClick={() => auth.send({ type: 'user.signOut' })}>
          {t('me:signOut.label')}
        </Button>
      </div>
    </Screen>
  );
}
