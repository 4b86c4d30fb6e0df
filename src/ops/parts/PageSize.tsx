import { useTranslation } from 'react-i18next';

/** The page sizes a desk table offers (the API's `limit`, at most 100). */
export const pageSizes = [25, 50, 100] as const;
export type PageSizeValue = (typeof pageSizes)[number];
const defaultPageSize: PageSizeValue = 50;

/**
 * The page size an address asks for (`limit`), or the default when it names none of the offered ones.
 *
 * @example pageSizeOf('100'); // 100
 */
export function pageSizeOf(text: string | null): PageSizeValue {
  return pageSizes.find((size) => String(size) === text) ?? defaultPageSize;
}

/** How many rows a page holds, chosen in the filters' row; a change reads the first page again. */
export function PageSize({ value, onChange }: { value: number; onChange: (size: PageSizeValue) => void }) {
  const { t } = useTranslation('ops');
  return (
    <label className="desk-filter">
      <span className="field-label">{t('table.pageSize')}</span>
      <select value={value} onChange={(event) => onChange(pageSizeOf(event.target.value))}>
        {pageSizes.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
    </label>
  );
}
