import { createMemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { matchedNamespaces, routeNamespaces, routes } from './routes';

describe('routeNamespaces', () => {
  it.each([
    ['/login/DEMO2026', ['login']],
    ['/login', ['login']],
    ['/register/DEMO2026', ['register']],
    ['/home', ['home', 'announcement']],
    ['/me/invitation', ['invitation']],
    ['/team/search', ['team']],
    ['/me/credit-records', ['credit']],
    ['/no/such/page', []],
  ])("behavior: %s starts with %j besides 'common'", (pathname, ns) => {
    expect(routeNamespaces(routes, { pathname })).toEqual(ns);
  });

  it.each(['/login/DEMO2026', '/home', '/me/wpos', '/buy/settlement'])(
    'behavior: a router created at %s reads the same namespaces from its first matches (what main.tsx uses)',
    (pathname) => {
      const router = createMemoryRouter(routes, { initialEntries: [pathname] });
      expect(matchedNamespaces(router.state.matches)).toEqual(routeNamespaces(routes, { pathname }));
      expect(matchedNamespaces(router.state.matches).length).toBeGreaterThan(0);
      router.dispose();
    },
  );
});
