import { useSelector } from '@xstate/react';
import { ExclamationCircleOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useRootActors } from '../../app/RootActorsContext';
import { selectDappParam } from '../../app/selectors';
import { Notice } from '../../components/Notice';

/** Payouts paused on doubt, as the app config last said; null while they go on. Beside its one reader, not in the entry. */
const selectWithdrawalsPaused = (snapshot: Parameters<typeof selectDappParam>[0]) => selectDappParam(snapshot)?.withdrawalsPaused ?? null;

/**
 * "Withdrawals are paused" with its translated causes, while the server says payouts stopped on doubt (dappParam's
 * withdrawalsPaused): a withdrawal asked for now waits for them to resume, and the member is told so, not left to
 * wonder. Nothing while payouts go on.
 */
export function WithdrawalsPaused() {
  const { t } = useTranslation('credit');
  const { config } = useRootActors();
  const paused = useSelector(config, selectWithdrawalsPaused);
  if (!paused) return null;
  return (
    <div role="status">
      <Notice icon={<ExclamationCircleOutline />}>
        <strong>{t('withdraw.paused.title')}</strong> {paused.causes.map((cause) => t(`withdraw.paused.cause.${cause}`)).join(' ')} {t('withdraw.paused.then')}
      </Notice>
    </div>
  );
}
