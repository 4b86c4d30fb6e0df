/** An age in the largest unit that fits, in the operator's language (Intl's units: no hand-written plural rules). */
export function formatAge(seconds: number, locale: string): string {
  const [unit, size] = seconds < 60 ? (['second', 1] as const) : seconds < 3600 ? (['minute', 60] as const) : seconds < 86_400 ? (['hour', 3600] as const) : (['day', 86_400] as const);
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 0 }).format(Math.floor(seconds / size));
}
