import { AppOutline, ShopbagOutline, TeamOutline, UserOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { paths } from '../../app/paths';
import { AppTabBar } from '../../components/AppTabBar';
import { useAppNavigate } from './useAppNavigate';

const tabs = [
  { href: paths.home.href(), key: 'home', icon: <AppOutline /> },
  { href: paths.team.href(), key: 'team', icon: <TeamOutline /> },
  { href: paths.buyList.href(), key: 'buy', icon: <ShopbagOutline /> },
  { href: paths.me.href(), key: 'me', icon: <UserOutline /> },
] as const;

/** The tab a path belongs to: its first segment (/me/invitation is under Me), or none. */
export function activeTab(pathname: string): string | null {
  const section = `/${pathname.split('/')[1] ?? ''}`;
  return tabs.find((tab) => tab.href === section)?.href ?? null;
}

/** The member's bottom tabs: Home, Team, Shop, Me, with the current section marked. */
export default function MemberTabBar() {
  const { t } = useTranslation('common');
  const location = useLocation();
  const onNavigate = useAppNavigate();
  return (
    <AppTabBar
      label={t('nav.label')}
      activeHref={activeTab(location.pathname)}
      onNavigate={onNavigate}
      items={tabs.map((tab) => ({ href: tab.href, icon: tab.icon, label: t(`nav.${tab.key}`) }))}
    />
  );
}
