import type { OperatorRole } from '../../api-schema/endpoint';

/** The desk's screens, in the order the menu lists them, with the roles that see them (admin sees all). */
export const deskScreens = [
  { id: 'withdrawals', path: '/ops/withdrawals', roles: ['finance'] },
  { id: 'topUps', path: '/ops/top-ups', roles: ['finance'] },
  { id: 'reconcile', path: '/ops/reconcile', roles: ['finance'] },
  { id: 'members', path: '/ops/members', roles: ['finance', 'support'] },
  { id: 'orders', path: '/ops/orders', roles: ['support'] },
  { id: 'content', path: '/ops/content', roles: ['content'] },
  { id: 'keys', path: '/ops/keys', roles: [] },
  { id: 'operators', path: '/ops/operators', roles: ['admin'] },
  { id: 'audit', path: '/ops/audit', roles: ['admin'] },
] as const satisfies readonly { id: string; path: string; roles: readonly OperatorRole[] }[];

export type DeskScreenId = (typeof deskScreens)[number]['id'];

/** Whether roles see a screen: admin sees every one; a screen with no roles is any operator's. */
export function canSee(roles: readonly OperatorRole[], screen: { roles: readonly OperatorRole[] }): boolean {
  return roles.includes('admin') || screen.roles.length === 0 || screen.roles.some((role) => roles.includes(role));
}

export const deskPath = (id: DeskScreenId): string => deskScreens.find((screen) => screen.id === id)?.path ?? '/ops';
