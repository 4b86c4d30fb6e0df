import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { useRootActors } from '../../app/RootActorsContext';
import { paths } from '../../app/paths';
import { selectMember } from '../../app/selectors';
import { BalanceCard } from '../../components/BalanceCard';
import { ListState } from '../../components/ListState';
import { Screen } from '../shared/Screen';
import { useFreshProfile } from '../shared/useFreshProfile';
import { SharePools } from './SharePools';
import { WposEntries } from './WposEntries';
import { WposRecords } from './WposRecords';

/**
 * /me/wpos — the WPOS area: both balances, transfer, exchange and profit, the share pools with their countdown, and
 * the WPOS records.
 */
export function Component() {
  const { t, i18n } = useTranslation(['wpos', 'common']);
  const { auth } = useRootActors();
  const member = useSelector(auth, selectMember);
  const locale = i18n.resolvedLanguage ?? 'zh';
  useFreshProfile();

  return (
    <Screen title={t('wpos:title')} parent={paths.me.href()}>
      {member ? (
        <BalanceCard
          title={t('wpos:balances.title')}
          locale={locale}
          balances={[
            { label: t('wpos:balances.wpos'), amount: member.wposBalance, symbol: 'WPOS' },
            { label: t('wpos:balances.credit'), amount: member.creditBalance, symbol: 'CREDIT' },
          ]}
        />
      ) : (
        <ListState state="loading" loadingLabel={t('common:status.loading')} rows={2} />
      )}
      <WposEntries />
      <SharePools />
      <WposRecords />
    </Screen>
  );
}
