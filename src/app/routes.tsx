/**
 * The route objects: one root layout route, every page loaded on demand (spec section 2). Member pages sit under
 * the MemberArea guard; the sign-in pages and public data pages do not.
 */
import { Navigate } from 'react-router-dom';
import type { RouteObject } from 'react-router-dom';
import { MemberArea } from '../routes/memberArea';
import { PageLoading, RootLayout, RouteError } from '../routes/root';
import { paths } from './paths';

/** A route whose screen comes with a later issue; `parent` is where its back arrow leads when opened directly. */
const upcoming = (pattern: string, section: string, parent?: string): RouteObject => ({
  path: pattern,
  handle: { section, parent },
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
      { path: paths.announcement.pattern, lazy: () => import('../routes/announcement') },
      { path: paths.announcementDetail.pattern, lazy: () => import('../routes/announcementDetail') },
      { path: paths.about.pattern, lazy: () => import('../routes/about') },
      { path: paths.solbotList.pattern, lazy: () => import('../routes/solbotList') },
      upcoming(paths.buyList.pattern, 'buyList'),
      {
        Component: MemberArea,
        children: [
          { path: paths.home.pattern, lazy: () => import('../routes/home') },
          { path: paths.me.pattern, lazy: () => import('../routes/me') },
          // Not one of the spec's routes: the credit records (issue 11), inside the member area.
          { path: paths.creditRecords.pattern, lazy: () => import('../routes/credit/records') },
          { path: paths.invitation.pattern, lazy: () => import('../routes/invitation') },
          { path: paths.team.pattern, lazy: () => import('../routes/team') },
          { path: paths.teamSearch.pattern, lazy: () => import('../routes/teamSearch') },
          upcoming(paths.wpos.pattern, 'wpos', paths.me.href()),
          upcoming(paths.wposProfit.pattern, 'wposProfit', paths.wpos.href()),
          upcoming(paths.settlement.pattern, 'settlement', paths.buyList.href()),
          upcoming(paths.shippingAddress.pattern, 'shippingAddress', paths.me.href()),
          upcoming(paths.shippingAddressAdd.pattern, 'shippingAddressAdd', paths.shippingAddress.href()),
          upcoming(paths.shippingAddressEdit.pattern, 'shippingAddressEdit', paths.shippingAddress.href()),
        ],
      },
      { path: '*', lazy: () => import('../routes/notFound') },
    ],
  },
];
