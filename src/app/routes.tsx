/**
 * The route objects: one root layout route, every page loaded on demand (spec section 2). Member pages sit under
 * the MemberArea guard; the sign-in pages and public data pages do not.
 */
import { Navigate } from 'react-router-dom';
import type { RouteObject } from 'react-router-dom';
import { MemberArea } from '../routes/memberArea';
import { PageLoading, RootLayout, RouteError } from '../routes/root';
import { paths } from './paths';

const upcoming = (pattern: string, section: string): RouteObject => ({
  path: pattern,
  handle: { section },
  lazy: () => import('../routes/upcoming'),
});

export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: PageLoading,
    children: [
      { index: true, element: <Navigate to={paths.home.href()} replace /> },
      { path: paths.login.pattern, lazy: () => import('../routes/login') },
      { path: paths.register.pattern, lazy: () => import('../routes/register') },
      upcoming(paths.announcement.pattern, 'announcement'),
      upcoming(paths.announcementDetail.pattern, 'announcementDetail'),
      upcoming(paths.about.pattern, 'about'),
      upcoming(paths.solbotList.pattern, 'solbotList'),
      upcoming(paths.buyList.pattern, 'buyList'),
      {
        Component: MemberArea,
        children: [
          { path: paths.home.pattern, lazy: () => import('../routes/home') },
          { path: paths.me.pattern, lazy: () => import('../routes/me') },
          { path: paths.invitation.pattern, lazy: () => import('../routes/invitation') },
          upcoming(paths.team.pattern, 'team'),
          upcoming(paths.teamSearch.pattern, 'teamSearch'),
          upcoming(paths.wpos.pattern, 'wpos'),
          upcoming(paths.wposProfit.pattern, 'wposProfit'),
          upcoming(paths.settlement.pattern, 'settlement'),
          upcoming(paths.shippingAddress.pattern, 'shippingAddress'),
          upcoming(paths.shippingAddressAdd.pattern, 'shippingAddressAdd'),
          upcoming(paths.shippingAddressEdit.pattern, 'shippingAddressEdit'),
        ],
      },
      { path: '*', lazy: () => import('../routes/notFound') },
    ],
  },
];
