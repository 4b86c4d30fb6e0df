/**
 * The desk's routes: the frame at /ops, each screen of the table (deskScreens.ts) loaded on demand, in its role gate.
 */
import type { RouteObject } from 'react-router-dom';
import { Navigate, useRouteError } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ListState } from '../components/ListState';
import { DeskHome, DeskShell, RoleGate } from './DeskShell';
import { deskScreens } from './deskScreens';

function DeskRouteError() {
  const { t } = useTranslation('ops');
  console.error('desk route failed', useRouteError());
  return <ListState state="error" title={t('common:Common.unknown')} retryLabel={t('common:actions.retry')} onRetry={() => window.location.reload()} />;
}

const screenRoute = ({ id, path, load }: (typeof deskScreens)[number]): RouteObject => ({
  path: path.slice('/ops/'.length),
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
      ...deskScreens.map(screenRoute),
      { path: '*', element: <Navigate to="/ops" replace /> },
    ],
  },
  { path: '*', element: <Navigate to="/ops" replace /> },
];
