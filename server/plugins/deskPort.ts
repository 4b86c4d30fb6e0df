/**
 * OPS_PORT (docs/operations.md, "The operators' desk (/ops)"): the desk on a listener of its own, so on an origin of
 * its own. The same app answers both listeners; a hook, first of all, tells them apart by the connection's listener.
 * The member port answers 404 for the desk (/ops, /api/admin); the desk's port serves the desk and what its page loads
 * (the app config, scripts, styles, texts, icons) and 404 for the rest, so no member page ever runs on the desk's
 * origin, where its scripts would be same-origin with the desk and could send calls carrying its session cookie.
 */
import { createServer, type Server } from 'node:http';
import { Server as NetServer, type AddressInfo, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { listenSites } from '../auth/signInSites';
import { NotFoundError } from '../errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** The desk's own listener when the app was built with deskOnOwnPort; null otherwise. */
    deskPort: DeskPort | null;
  }
}

export interface DeskPort {
  /** Opens the desk's listener (after the app's own listen); resolves with its address. */
  listen(port: number, host: string): Promise<AddressInfo>;
  /** Takes no new connection; those open are served until the app closes (the stop's first step, as for the member port). */
  stopListening(): void;
}

/** The desk's own paths: only on its port. */
const DESK_PATH = /^\/(?:ops|api\/admin)(?:\/|$)/u;
/** What the desk's page loads besides the desk's paths; none of it is a page. */
const DESK_PAGE_NEEDS = /^\/(?:api\/dapp|api\/health|assets|locales|media)\//u;

function pathOf(request: FastifyRequest): string {
  // The target as sent, before an odd one is rewritten to the internal route.
  return (request.originalUrl || request.url).split('?')[0] ?? '/';
}

/**
 * Whether a request may be answered on the listener it came in on.
 *
 * @param path - the request's path
 * @param onDeskPort - whether it came in on the desk's listener
 * @returns false when it must be 404
 * @example
 * servedOn('/api/admin/me', false); // false: the member port has no desk
 */
export function servedOn(path: string, onDeskPort: boolean): boolean {
  if (DESK_PATH.test(path)) return onDeskPort;
  return !onDeskPort || DESK_PAGE_NEEDS.test(path) || path === '/robots.txt';
}

/**
 * Installs the split (before the access hook, so a desk call on the member port is 404, not 1002) and decorates
 * `deskPort`; without `enabled`, `deskPort` is null and nothing else changes.
 *
 * @param app - the root instance, not ready yet
 * @param enabled - whether the desk has a listener of its own (OPS_PORT set)
 * @returns nothing; app.deskPort.listen() opens the listener
 * @example
 * installDeskPort(app, options.deskOnOwnPort === true);
 */
export function installDeskPort(app: FastifyInstance, enabled: boolean): void {
  if (!enabled) {
    app.decorate('deskPort', null);
    return;
  }
  const deskSockets = new WeakSet<Socket>();
  let server: { desk: Server; closed: Promise<void> } | undefined;
  app.addHook('onRequest', async (request) => {
    if (!servedOn(pathOf(request), deskSockets.has(request.raw.socket))) throw new NotFoundError();
  });
  app.addHook('onClose', async () => {
    if (!server) return;
    if (server.desk.listening) NetServer.prototype.close.call(server.desk);
    // As the member port closes: idle keep-alive connections at once, the requests under way once answered.
    server.desk.closeIdleConnections();
    await server.closed;
  });
  const deskPort: DeskPort = {
    listen: async (port, host) => {
      // Fastify's own request handler: the same hooks, routes and error handling as the member port.
      const desk = createServer({ requestTimeout: app.server.requestTimeout, keepAliveTimeout: app.server.keepAliveTimeout }, app.routing);
      desk.on('connection', (socket: Socket) => deskSockets.add(socket));
      server = { desk, closed: new Promise<void>((resolve) => desk.once('close', () => resolve())) };
      await new Promise<void>((resolve, reject) => {
        desk.once('error', reject);
        desk.listen(port, host, () => {
          desk.off('error', reject);
          resolve();
        });
      });
      const address = desk.address() as AddressInfo;
      // The embedded start's sign-in sites are its listen addresses: the desk's are sites too.
      if (!app.signInSites.configured) app.signInSites.addListenSites(listenSites([address], networkInterfaces()));
      return address;
    },
    stopListening: () => {
      // net's close, not http's: it would also drop the idle connections a request may just be arriving on.
      if (server?.desk.listening) NetServer.prototype.close.call(server.desk);
    },
  };
  app.decorate('deskPort', deskPort);
}
