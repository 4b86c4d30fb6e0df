/* global process */
// The first module of a TypeScript worker (server/tsWorker.ts): registers tsx in this thread, then imports the
// module named by the worker's argv. A file rather than evaluated code, so that 'tsx/esm/api' resolves from the
// server's own folder whatever the working directory.
import { register } from 'tsx/esm/api';

register();
await import(process.argv[2] ?? '');
