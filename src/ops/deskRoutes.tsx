/**
 * The desk's routes: the frame at /ops, each screen loaded on demand, wrapped in its role gate.
 */
import type { RouteObject } from 'react-router-dom';
import { Navigate, useRouteError } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ListState } from '../components/ListState';
import { DeskHome, DeskShell, RoleGate } from './DeskShell';
import type { DeskScreenId } from './deskPaths';
import { deskPath } from './deskPaths';

function DeskRouteError() {
  const { t } = useTranslation('ops');
  console.error('desk route failed', useRouteError());
  return <ListState state="error" title={t('common:Common.unknown')} retryLabel={t('common:actions.retry')} onRetry={() => window.location.reload()} />;
}

const screen = (id: DeskScreenId, load: () => Promise<{ Screen: () => React.JSX.Element }>): RouteObject => ({
  path: deskPath(id).slice('/ops/'.length),
  lazy: async () => {
    const { Screen } = await load();
    return {
      Component: () => (
        <RoleGate screen={id}>
          <Screen />
        </RoleGate>
      ),
    };
  },
});

export const deskRoutes: RouteObject[] = [
  {
    path: '/ops',
    Component: DeskShell,
    ErrorBoundary: DeskRouteError,
    children: [
      { index: true, Component: DeskHome },
      screen('withdrawals', () => import('./screens/withdrawals')),
      screen('topUps', () => import('./screens/topUps')),
      screen('reconcile', () => import('./screens/reconcile')),
      screen('members', () => import('./screens/members')),
      screen('orders', () => import('./screens/orders')),
      screen('content', () => import('./screens/content')),
      screen('keys', () => import('./screens/keys')),
      screen('operators', () => import('./screens/operators')),
      screen('audit', () => import('./screens/audit')),
      { path: '*', element: <Navigate to="/ops" replace /> },
    ],
  },
  { path: '*', element: <Navigate to="/ops" replace /> },
];
