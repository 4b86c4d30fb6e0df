import Button from 'antd-mobile/es/components/button';
import { HistogramOutline, LoopOutline, SendOutline } from 'antd-mobile-icons';
import { Suspense, lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { paths } from '../../app/paths';
import { AppLink } from '../../components/AppLink';
import { useAppNavigate } from '../shared/useAppNavigate';
import { useSheetParam } from '../shared/useSheetParam';

// Each sheet (its form, machine and selectors) is loaded when it opens, not with the page.
const TransferSheet = lazy(() => import('./transferSheet'));
const ExchangeSheet = lazy(() => import('./exchangeSheet'));

/** /me/wpos's entries: Transfer and Exchange open their sheets (`?sheet=transfer|exchange`), Profit is a page. */
export function WposEntries() {
  const { t } = useTranslation(['wpos']);
  const onNavigate = useAppNavigate();
  const transfer = useSheetParam('transfer');
  const exchange = useSheetParam('exchange');

  return (
    <>
      <nav aria-label={t('wpos:entries.label')} className="credit-entries wpos-entries">
        <Button color="primary" shape="rounded" className="credit-entry" onClick={transfer.open}>
          <SendOutline aria-hidden="true" /> {t('wpos:entries.transfer')}
        </Button>
        <Button color="primary" fill="outline" shape="rounded" className="credit-entry" onClick={exchange.open}>
          <LoopOutline aria-hidden="true" /> {t('wpos:entries.exchange')}
        </Button>
        <AppLink href={paths.wposProfit.href()} onNavigate={onNavigate} className="credit-entry credit-entry-link">
          <HistogramOutline aria-hidden="true" /> {t('wpos:entries.profit')}
        </AppLink>
      </nav>
      <Suspense fallback={null}>
        {transfer.isOpen ? <TransferSheet onClose={transfer.close} /> : null}
        {exchange.isOpen ? <ExchangeSheet onClose={exchange.close} /> : null}
      </Suspense>
    </>
  );
}
