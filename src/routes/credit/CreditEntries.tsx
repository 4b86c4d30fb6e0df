import Button from 'antd-mobile/es/components/button';
import { BillOutline, PayCircleOutline } from 'antd-mobile-icons';
import { Suspense, lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { paths } from '../../app/paths';
import { AppLink } from '../../components/AppLink';

// The sheet (its form, the withdraw machine and its selectors) is loaded when it opens, not with /me.
const WithdrawSheet = lazy(() => import('./withdrawSheet'));

/** The query parameter whose value names the sheet open over the page (`/me?sheet=withdraw`). */
export const sheetParam = 'sheet';
/** Marks a history entry the app pushed to open a sheet, so closing goes back instead of adding an entry. */
interface SheetState {
  sheetOpenedHere?: boolean;
}

/**
 * /me's credit entries: Withdraw opens the withdrawal sheet, whose open state is in the URL (`?sheet=withdraw`),
 * so the back button closes it and a reload keeps it open; Credit records goes to its own page.
 */
export function CreditEntries() {
  const { t } = useTranslation(['me', 'common']);
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams, setSearchParams] = useSearchParams();
  const open = searchParams.get(sheetParam) === 'withdraw';

  const openSheet = () => {
    const state: SheetState = { sheetOpenedHere: true };
    void setSearchParams({ [sheetParam]: 'withdraw' }, { state });
  };
  const closeSheet = () => {
    // Opened with the button: going back closes it and leaves no entry. Opened from a link or a reload: replace.
    if ((location.state as SheetState | null)?.sheetOpenedHere) void navigate(-1);
    else void setSearchParams({}, { replace: true });
  };
  const showRecords = () => void navigate(paths.creditRecords.href(), { replace: true });

  return (
    <>
      <nav aria-label={t('me:credit.label')} className="credit-entries">
        <Button color="primary" shape="rounded" className="credit-entry" onClick={openSheet}>
          <PayCircleOutline aria-hidden="true" /> {t('me:credit.withdraw')}
        </Button>
        <AppLink href={paths.creditRecords.href()} onNavigate={(href) => void navigate(href)} className="credit-entry credit-entry-link">
          <BillOutline aria-hidden="true" /> {t('me:credit.records')}
        </AppLink>
      </nav>
      {open ? (
        <Suspense fallback={null}>
          <WithdrawSheet onClose={closeSheet} onShowRecords={showRecords} />
        </Suspense>
      ) : null}
    </>
  );
}
