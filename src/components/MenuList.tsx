import List from 'antd-mobile/es/components/list';
import type { ReactNode } from 'react';
import { AppLink } from './AppLink';

export interface MenuItem {
  href: string;
  label: string;
  icon: ReactNode;
  extra?: ReactNode;
}

/** A list of places to go, each row one link with its icon and an arrow (antd-mobile List for the look). */
export function MenuList({ items, label, onNavigate }: { items: readonly MenuItem[]; label: string; onNavigate: (href: string) => void }) {
  return (
    <nav aria-label={label} className="menu-list">
      <List mode="card">
        {items.map((item) => (
          <List.Item key={item.href} prefix={<span className="menu-icon">{item.icon}</span>} extra={item.extra} arrow>
            <AppLink href={item.href} onNavigate={onNavigate} className="menu-link">
              {item.label}
            </AppLink>
          </List.Item>
        ))}
      </List>
    </nav>
  );
}
