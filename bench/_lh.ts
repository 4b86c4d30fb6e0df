import { startServer } from '../tests/e2e/support/server';
import { benchLighthouse } from './lighthouse';
const server = await startServer();
try { await benchLighthouse(server.url); } finally { await server.stop(); }
