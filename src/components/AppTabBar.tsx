import TabBar from 'antd-mobile/es/components/tab-bar';
import type { MenuItem } from './MenuList';
import { AppLink } from './AppLink';
import './appTabBar.css';

/**
 * The member's bottom tabs (antd-mobile TabBar for layout, active colour and the safe area). Each tab is a real
 * link filling its cell, since antd-mobile's items are divs a keyboard cannot reach.
 */
export function AppTabBar({ items, activeHref, label, onNavigate }: { items: readonly MenuItem[]; activeHref: string | null; label: string; onNavigate: (href: string) => void }) {
  return (
    <nav aria-label={label} className="app-tab-bar">
      <TabBar activeKey={activeHref} safeArea>
        {items.map((item) => (
          <TabBar.Item
            key={item.href}
            title={
              <AppLink href={item.href} onNavigate={onNavigate} className="tab-link" aria-current={item.href === activeHref ? 'page' : undefined}>
                <span className="tab-icon" aria-hidden="true">
                  {item.icon}
                </span>
                <span>{item.label}</span>
              </AppLink>
            }
          />
        ))}
      </TabBar>
    </nav>
  );
}
