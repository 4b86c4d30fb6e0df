/**
 * react-router's createBrowserRouter(routes), in three tasks: the browser history (its first replaceState), the
 * router (the routes made data routes, ranked and matched), and its start (the listeners, the saved view
 * transitions in sessionStorage, the first matches). In one task these were the longest step of the start-up:
 * 27-32 ms unthrottled in Lighthouse's traces, four times that on its simulated phone, whose Total Blocking Time
 * counts what a task takes over 50 ms. In three, 12-14 ms each. The parts are react-router's own exports, called
 * with what createBrowserRouter passes them (react-router 7.18). They are its UNSAFE_ exports, so
 * browserRouter.test.tsx compares the result with createBrowserRouter's, and an upgrade that changes them fails there.
 */
import {
  UNSAFE_createBrowserHistory as createBrowserHistory,
  UNSAFE_createRouter as createRouter,
  UNSAFE_hydrationRouteProperties as hydrationRouteProperties,
  UNSAFE_mapRouteProperties as mapRouteProperties,
  type RouteObject,
  type createBrowserRouter,
} from 'react-router-dom';

export type BrowserRouter = ReturnType<typeof createBrowserRouter>;

/**
 * Creates and starts the browser's data router, yielding between its parts.
 *
 * @param routes - the app's routes
 * @param nextTask - resolves in a later task (src/scheduling/nextTask.ts)
 * @returns the started router, as createBrowserRouter(routes) returns it
 * @example
 * const router = await createBrowserRouterInSteps(routes, nextTask);
 */
export async function createBrowserRouterInSteps(routes: RouteObject[], nextTask: () => Promise<void>): Promise<BrowserRouter> {
  const history = createBrowserHistory({ window });
  await nextTask();
  // No hydrationData: this app renders on the client only (createBrowserRouter reads window.__staticRouterHydrationData,
  // which nothing here writes).
  const router = createRouter({ history, routes, mapRouteProperties, hydrationRouteProperties, window });
  await nextTask();
  return router.initialize();
}
