import type { MenuItem } from './MenuList';
import { AppLink } from './AppLink';

/** The home page's row of big shortcuts: an icon over a short label, each a link. */
export function ShortcutGrid({ items, label, onNavigate }: { items: readonly MenuItem[]; label: string; onNavigate: (href: string) => void }) {
  return (
    <nav aria-label={label} className="shortcut-grid">
      {items.map((item) => (
        <AppLink key={item.href} href={item.href} onNavigate={onNavigate} className="shortcut">
          <span className="shortcut-icon" aria-hidden="true">
            {item.icon}
          </span>
          <span className="shortcut-label">{item.label}</span>
        </AppLink>
      ))}
    </nav>
  );
}
