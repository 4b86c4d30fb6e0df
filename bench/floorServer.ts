/**
 * The HTTP floor: a bare Fastify server with one route that answers a fixed envelope, no database, no hooks.
 * Imported, it is the floor of the meInfo load figures; run as a program (`node --import tsx
 * bench/floorServer.ts` with PORT and HOST), it is the floor of the start-up figures.
 */
import Fastify, { type FastifyInstance } from 'fastify';

const ANSWER = {
  code: 0,
  result: {
    address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
    inviteCode: 'DEMO2026',
    recommender: null,
    level: 0,
    creditBalance: '0.00',
    wposBalance: '0.00',
    teamSize: 0,
    directCount: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
  },
};

/** Path the floor answers on; the same as the start-up probe. */
export const FLOOR_PATH = '/api/dapp/dappParam';

/**
 * Starts the floor server.
 *
 * @param port - port to listen on (0: any free one)
 * @param host - interface, 127.0.0.1 by default
 * @returns the instance and its URL
 * @example
 * const floor = await startFloorServer(0);
 * await floor.app.close();
 */
export async function startFloorServer(port: number, host = '127.0.0.1'): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify({ logger: false });
  app.get(FLOOR_PATH, async () => ANSWER);
  await app.listen({ port, host });
  const address = app.server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return { app, url: `http://${host}:${actual}${FLOOR_PATH}` };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  startFloorServer(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1').then(
    ({ app }) => {
      const stop = () => void app.close();
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
