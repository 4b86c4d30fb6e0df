import { useSelector } from '@xstate/react';
import { ExclamationCircleOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useRootActors } from '../../app/RootActorsContext';
import { selectWithdrawalsPaused } from '../../app/selectors';
import { Notice } from '../../components/Notice';

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
