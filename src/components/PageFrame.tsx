import type { ReactNode } from 'react';
import { backArrow } from './backArrow';

interface PageFrameProps {
  title: string;
  /** Shown when the page has a way back; the route decides where back goes (history, or the parent). */
  onBack?: () => void;
  backLabel?: string;
  /** The right end of the bar (the language switch). */
  right?: ReactNode;
  children: ReactNode;
}

/**
 * A screen: the bar with its title (the page's h1), a back arrow on nested pages, and the content below.
 * The bar is drawn here rather than with antd-mobile's NavBar: NavBar's left area is a div with role="button"
 * that a keyboard cannot reach, which axe reports as a nameless command (and, with a real back button inside, as
 * nested interactive controls). ADR 0006 records this. The arrow's icon is loaded with the screens that have a way
 * back (backArrow.ts).
 */
export function PageFrame({ title, onBack, backLabel, right, children }: PageFrameProps) {
  return (
    <section className="page">
      <header className="page-bar">
        <div className="page-bar-side">
          {onBack && backLabel ? (
            <button type="button" className="icon-button page-back" onClick={onBack} aria-label={backLabel}>
              {backArrow()}
            </button>
          ) : null}
        </div>
        <h1 className="page-title">{title}</h1>
        <div className="page-bar-side page-bar-right">{right}</div>
      </header>
      <div className="page-body">{children}</div>
    </section>
  );
}
