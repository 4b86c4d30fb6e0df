import Button from 'antd-mobile/es/components/button';
import { AddCircleOutline, BillOutline, PayCircleOutline } from 'antd-mobile-icons';
import { useSelector } from '@xstate/react';
import { Suspense, lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../app/paths';
import { AppLink } from '../../components/AppLink';
import { useRootActors } from '../../app/RootActorsContext';
import { selectDappParam } from '../../app/selectors';
import { useSheetParam } from '../shared/useSheetParam';

// The sheets (their forms, machines and selectors; the top-up's transaction code) load when they open, not with /me.
const WithdrawSheet = lazy(() => import('./withdrawSheet'));
const TopUpSheet = lazy(() => import('./topUpSheet'));

/**
 * /me's credit entries: Top up (where the server has a chain) and Withdraw open their sheets, whose open state is in
 * the URL (`?sheet=topUp`, `?sheet=withdraw`, useSheetParam); Credit records goes to its own page.
 */
export function CreditEntries() {
  const { t } = useTranslation(['me', 'common']);
  const navigate = useNavigate();
  const sheet = useSheetParam('withdraw');
  const topUp = useSheetParam('topUp');
  const { config } = useRootActors();
  // Top-ups exist where the server names the token that backs credit (docs/API.md, "Credit on chain").
  const canTopUp = useSelector(config, selectDappParam)?.token !== undefined;
  const showRecords = () => void navigate(paths.creditRecords.href(), { replace: true });

  return (
    <>
      <nav aria-label={t('me:credit.label')} className="credit-entries">
        {canTopUp ? (
          <Button color="primary" shape="rounded" className="credit-entry" onClick={topUp.open}>
            <AddCircleOutline aria-hidden="true" /> {t('me:credit.topUp')}
          </Button>
        ) : null}
        <Button color="primary" fill={canTopUp ? 'outline' : 'solid'} shape="rounded" className="credit-entry" onClick={sheet.open}>
          <PayCircleOutline aria-hidden="true" /> {t('me:credit.withdraw')}
        </Button>
        <AppLink href={paths.creditRecords.href()} onNavigate={(href) => void navigate(href)} className="credit-entry credit-entry-link">
          <BillOutline aria-hidden="true" /> {t('me:credit.records')}
        </AppLink>
      </nav>
      {topUp.isOpen ? (
        <Suspense fallback={null}>
          <TopUpSheet onClose={topUp.close} onShowRecords={showRecords} />
        </Suspense>
      ) : null}
      {sheet.isOpen ? (
        <Suspense fallback={null}>
          <WithdrawSheet onClose={sheet.close} onShowRecords={showRecords} />
        </Suspense>
      ) : null}
    </>
  );
}
