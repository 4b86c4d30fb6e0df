import { createBrowserRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { createBrowserRouterInSteps } from './browserRouter';
import { routes } from './routes';

/** What a started router shows the app: where it is, what matched, and whether it is done loading. */
function stateOf(router: Awaited<ReturnType<typeof createBrowserRouterInSteps>>) {
  const { location, matches, initialized, navigation, historyAction } = router.state;
  return { pathname: location.pathname, search: location.search, matches: matches.map((match) => match.route.id), initialized, navigation: navigation.state, historyAction };
}

type DataRoutes = Awaited<ReturnType<typeof createBrowserRouterInSteps>>['routes'];

/** The routes as the router made them (react-router's mapRouteProperties adds element and hasErrorBoundary). */
function shapeOf(routes: DataRoutes): unknown[] {
  return routes.map((route) => ({
    id: route.id,
    path: route.path,
    index: route.index,
    hasErrorBoundary: route.hasErrorBoundary,
    keys: Object.keys(route).sort(),
    children: route.children ? shapeOf(route.children) : [],
  }));
}

describe('createBrowserRouterInSteps', () => {
  afterEach(() => {
    window.history.replaceState(null, '', '/');
  });

  it.each(['/login/DEMO2026', '/home?tab=1', '/me/wpos', '/no/such/page'])(
    'behavior: at %s it starts the router createBrowserRouter starts, and follows navigation the same way',
    async (path) => {
      window.history.replaceState(null, '', path);
      const reference = createBrowserRouter(routes);
      const expected = stateOf(reference);
      reference.dispose();

      window.history.replaceState(null, '', path);
      const steps: string[] = [];
      const router = await createBrowserRouterInSteps(routes, async () => void steps.push('yield'));
      expect(steps).toEqual(['yield', 'yield']);
      expect(stateOf(router)).toEqual(expected);
      expect(shapeOf(router.routes)).toEqual(shapeOf(reference.routes));

      await router.navigate('/login');
      expect(window.location.pathname).toBe('/login');
      expect(router.state.location.pathname).toBe('/login');
      router.dispose();
    },
  );
});
