import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';

/** The query parameter whose value names the sheet open over the page (`/me?sheet=withdraw`). */
export const sheetParam = 'sheet';

/** Marks a history entry the app pushed to open a sheet, so closing goes back instead of adding an entry. */
interface SheetState {
  sheetOpenedHere?: boolean;
}

/**
 * A sheet's open state, kept in the URL (`?sheet=<name>`): the back button closes it and a reload keeps it open.
 * Every money flow's sheet opens through this one hook.
 *
 * @param name - the sheet's name in `?sheet=`
 * @returns whether it is open, and open/close
 * @example
 * const withdraw = useSheetParam('withdraw');
 * <Button onClick={withdraw.open}>Withdraw</Button>
 */
export function useSheetParam(name: string): { isOpen: boolean; open: () => void; close: () => void } {
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams, setSearchParams] = useSearchParams();
  return {
    isOpen: searchParams.get(sheetParam) === name,
    open: () => {
      const state: SheetState = { sheetOpenedHere: true };
      void setSearchParams({ [sheetParam]: name }, { state });
    },
    close: () => {
      // Opened with a button: going back closes it and leaves no entry. Opened from a link or a reload: replace.
      if ((location.state as SheetState | null)?.sheetOpenedHere) void navigate(-1);
      else void setSearchParams({}, { replace: true });
    },
  };
}
