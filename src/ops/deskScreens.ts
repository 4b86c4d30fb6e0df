/**
 * The one table of the desk's screens: where each is, the roles that see it (admin sees all; none: every operator)
 * and how it loads. Its title is `screens.<id>` in locales/<lng>/ops.json. The router (deskRoutes.tsx), the menu
 * (DeskShell.tsx), the visual check and the atlas' shots (tests/e2e/support/visualDeskScreens.ts) read it; a new screen
 * is a row here and its module (docs/recipes.md, "Adding a desk screen").
 */
import type { OperatorRole } from '../../api-schema/endpoint';

/** A screen's module: it exports `Screen`. */
export type ScreenModule = Promise<{ Screen: () => React.JSX.Element }>;

export const deskScreens = [
  { id: 'overview', path: '/ops/overview', roles: [], load: () => import('./screens/overview') },
  { id: 'withdrawals', path: '/ops/withdrawals', roles: ['finance'], load: () => import('./screens/withdrawals') },
  { id: 'topUps', path: '/ops/top-ups', roles: ['finance'], load: () => import('./screens/topUps') },
  { id: 'reconcile', path: '/ops/reconcile', roles: ['finance'], load: () => import('./screens/reconcile') },
  { id: 'members', path: '/ops/members', roles: ['finance', 'support'], load: () => import('./screens/members') },
  { id: 'orders', path: '/ops/orders', roles: ['support'], load: () => import('./screens/orders') },
  { id: 'content', path: '/ops/content', roles: ['content'], load: () => import('./screens/content') },
  { id: 'keys', path: '/ops/keys', roles: [], load: () => import('./screens/keys') },
  { id: 'operators', path: '/ops/operators', roles: ['admin'], load: () => import('./screens/operators') },
  { id: 'audit', path: '/ops/audit', roles: ['admin'], load: () => import('./screens/audit') },
] as const satisfies readonly { id: string; path: string; roles: readonly OperatorRole[]; load: () => ScreenModule }[];

export type DeskScreenId = (typeof deskScreens)[number]['id'];

/** Whether roles see a screen: admin sees every one; a screen with no roles is any operator's. */
export function canSee(roles: readonly OperatorRole[], screen: { roles: readonly OperatorRole[] }): boolean {
  return roles.includes('admin') || screen.roles.length === 0 || screen.roles.some((role) => roles.includes(role));
}

export const deskPath = (id: DeskScreenId): string => deskScreens.find((screen) => screen.id === id)?.path ?? '/ops';
