import Button from 'antd-mobile/es/components/button';
import { BillOutline, PayCircleOutline } from 'antd-mobile-icons';
import { Suspense, lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../app/paths';
import { AppLink } from '../../components/AppLink';
import { useSheetParam } from '../shared/useSheetParam';

// The sheet (its form, the withdraw machine and its selectors) is loaded when it opens, not with /me.
const WithdrawSheet = lazy(() => import('./withdrawSheet'));

/**
 * /me's credit entries: Withdraw opens the withdrawal sheet, whose open state is in the URL (`?sheet=withdraw`,
 * useSheetParam); Credit records goes to its own page.
 */
export function CreditEntries() {
  const { t } = useTranslation(['me', 'common']);
  const navigate = useNavigate();
  const sheet = useSheetParam('withdraw');
  const showRecords = () => void navigate(paths.creditRecords.href(), { replace: true });

  return (
    <>
      <nav aria-label={t('me:credit.label')} className="credit-entries">
        <Button color="primary" shape="rounded" className="credit-entry" onClick={sheet.open}>
          <PayCircleOutline aria-hidden="true" /> {t('me:credit.withdraw')}
        </Button>
        <AppLink href={paths.creditRecords.href()} onNavigate={(href) => void navigate(href)} className="credit-entry credit-entry-link">
          <BillOutline aria-hidden="true" /> {t('me:credit.records')}
        </AppLink>
      </nav>
      {sheet.isOpen ? (
        <Suspense fallback={null}>
          <WithdrawSheet onClose={sheet.close} onShowRecords={showRecords} />
        </Suspense>
      ) : null}
    </>
  );
}
