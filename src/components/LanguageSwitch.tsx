import { GlobalOutline } from 'antd-mobile-icons';

/** The header's language switch: one tap goes to the other language; its name is in that language. */
export function LanguageSwitch({ label, lang, ariaLabel, onSwitch }: { label: string; lang: string; ariaLabel: string; onSwitch: () => void }) {
  return (
    <button type="button" className="language-switch" onClick={onSwitch} aria-label={ariaLabel}>
      <GlobalOutline aria-hidden="true" />
      <span lang={lang}>{label}</span>
    </button>
  );
}
