import NavBar from 'antd-mobile/es/components/nav-bar';
import { LeftOutline } from 'antd-mobile-icons';
import type { ReactNode } from 'react';

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
 * A screen: the bar with its title (the page's h1), a back arrow on nested pages, and the content below. The
 * back arrow is a real button; antd-mobile's own back area is a div, so it stays off (back={null}).
 */
export function PageFrame({ title, onBack, backLabel, right, children }: PageFrameProps) {
  return (
    <section className="page">
      <NavBar
        className="page-bar"
        back={null}
        left={
          onBack && backLabel ? (
            <button type="button" className="icon-button page-back" onClick={onBack} aria-label={backLabel}>
              <LeftOutline aria-hidden="true" />
            </button>
          ) : null
        }
        right={right}
      >
        <h1 className="page-title">{title}</h1>
      </NavBar>
      <div className="page-body">{children}</div>
    </section>
  );
}
