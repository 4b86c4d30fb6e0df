/**
 * The route objects: one root layout route, every page loaded on demand (spec section 2). Member pages sit under
 * the MemberArea guard; the sign-in pages and public data pages do not.
 */
import { Navigate, matchRoutes } from 'react-router-dom';
import type { LazyRouteFunction, RouteObject } from 'react-router-dom';
import { loadBackArrow } from '../components/backArrow';
import { loadComponentTexts } from '../i18n/componentLocale';
import type { Namespace } from '../i18n/i18n';
import * as loginPage from '../routes/login';
import { MemberArea } from '../routes/memberArea';
import { PageLoading, RootLayout, RouteError } from '../routes/root';
import { paths } from './paths';

/** What a route says about itself: its translation namespaces besides 'common' (read at start by routeNamespaces). */
export interface RouteHandle {
  ns?: readonly Namespace[];
}

type LazyRoute = LazyRouteFunction<RouteObject>;

/**
 * A screen's code with what every screen loaded on demand needs besides it: the screens' stylesheet (screens.css),
 * antd-mobile's texts in the member's language (componentLocale.ts) and the back arrow's icon (backArrow.ts). The
 * route waits for all of them before it renders, so no screen shows unstyled, in the other language or without its
 * arrow. /login, whose page is in the entry script, needs none of them, so a first visit downloads none
 * (bench/README.md, section 1). Vite turns the CSS import into a <link rel="stylesheet"> added first, so the route's
 * own CSS still comes after it.
 */
const withScreenAssets =
  (load: LazyRoute): LazyRoute =>
  async () => {
    const [, , , route] = await Promise.all([import('./screens.css'), loadComponentTexts(), loadBackArrow(), load()]);
    return route;
  };

/** A page loaded on demand, with the namespaces its screen reads. */
const page = (pattern: string, ns: readonly Namespace[], load: LazyRoute): RouteObject => ({
  path: pattern,
  handle: { ns } satisfies RouteHandle,
  lazy: withScreenAssets(load),
});

export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: PageLoading,
    children: [
      { index: true, element: <Navigate to={paths.home.href()} replace /> },
      // In the entry script already (every member's first screen): not lazy, so the router starts on /login without
      // resolving a route first (a task less of a phone's start-up).
      { path: paths.login.pattern, handle: { ns: ['login'] } satisfies RouteHandle, Component: loginPage.Component },
      page(paths.register.pattern, ['register'], () => import('../routes/register')),
      page(paths.announcement.pattern, ['announcement'], () => import('../routes/announcement')),
      page(paths.announcementDetail.pattern, ['announcement'], () => import('../routes/announcementDetail')),
      page(paths.about.pattern, ['about'], () => import('../routes/about')),
      page(paths.solbotList.pattern, ['solbot'], () => import('../routes/solbotList')),
      page(paths.buyList.pattern, ['buy'], () => import('../routes/buy/list')),
      {
        Component: MemberArea,
        children: [
          page(paths.home.pattern, ['home', 'announcement'], () => import('../routes/home')),
          page(paths.me.pattern, ['me'], () => import('../routes/me')),
          // Not one of the spec's routes: the credit records, inside the member area.
          page(paths.creditRecords.pattern, ['credit'], () => import('../routes/credit/records')),
          page(paths.invitation.pattern, ['invitation'], () => import('../routes/invitation')),
          page(paths.team.pattern, ['team'], () => import('../routes/team')),
          page(paths.teamSearch.pattern, ['team'], () => import('../routes/teamSearch')),
          page(paths.wpos.pattern, ['wpos'], () => import('../routes/wpos/page')),
          page(paths.wposProfit.pattern, ['wpos'], () => import('../routes/wpos/profit')),
          page(paths.settlement.pattern, ['buy'], () => import('../routes/buy/settlement')),
          page(paths.shippingAddress.pattern, ['buy'], () => import('../routes/buy/addressBook')),
          page(paths.shippingAddressAdd.pattern, ['buy'], () => import('../routes/buy/addressForm').then((page) => ({ Component: page.AddAddressPage }))),
          page(paths.shippingAddressEdit.pattern, ['buy'], () => import('../routes/buy/addressForm').then((page) => ({ Component: page.EditAddressPage }))),
        ],
      },
      { path: '*', lazy: withScreenAssets(() => import('../routes/notFound')) },
    ],
  },
];

/**
 * The translation namespaces the page at a location reads besides 'common', from its routes' handles: what a first
 * visit loads at start, so it fetches only the files it shows (others load with the screens that ask for them).
 *
 * @example
 * routeNamespaces(routes, { pathname: '/login/DEMO2026' }); // ['login']
 */
export function routeNamespaces(routeList: RouteObject[], location: { pathname: string }): Namespace[] {
  return matchedNamespaces(matchRoutes(routeList, location) ?? []);
}

/**
 * The same from routes already matched: main.tsx reads the router's own first matches instead of matching the
 * location a second time (ranking every route costs a few ms of a phone's start-up).
 *
 * @example
 * matchedNamespaces(router.state.matches); // ['login'] on /login/DEMO2026
 */
export function matchedNamespaces(matches: readonly { route: { handle?: unknown } }[]): Namespace[] {
  const names = matches.flatMap(({ route }) => (route.handle as RouteHandle | undefined)?.ns ?? []);
  return [...new Set(names)];
}
