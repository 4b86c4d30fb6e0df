/**
 * Runs `work` (an in-process Vite build) and puts process.env.NODE_ENV back as it was: Vite's production build sets
 * it for the whole process, and every server a later bench section spawns inherits it (those servers then refused
 * to start: "NODE_ENV is production, so a real chain...").
 *
 * @param work - the build
 * @returns what it returns
 * @example
 * await keepNodeEnv(() => build({ root }));
 */
export async function keepNodeEnv<T>(work: () => Promise<T>): Promise<T> {
  const nodeEnv = process.env.NODE_ENV;
  try {
    return await work();
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}
