/** The app's mark: a shield of two interlocking links, drawn in the brand colour. Decorative. */
export function BrandMark({ size = 40 }: { size?: number }) {
  return (
    <svg className="brand-mark" width={size} height={size} viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <rect width="48" height="48" rx="12" fill="var(--app-color-brand)" />
      <path d="M14 20a6 6 0 0 1 6-6h6a6 6 0 0 1 0 12h-2" fill="none" stroke="var(--app-color-on-brand)" strokeWidth="3.5" strokeLinecap="round" />
      <path d="M34 28a6 6 0 0 1-6 6h-6a6 6 0 0 1 0-12h2" fill="none" stroke="var(--app-color-on-brand)" strokeWidth="3.5" strokeLinecap="round" opacity="0.85" />
    </svg>
  );
}
