import { describe, expect, it } from 'vitest';
import { routeNamespaces, routes } from './routes';

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
});
