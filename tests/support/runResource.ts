/**
 * A resource the whole test run shares (the PGlite and PostgreSQL templates): made by the first globalSetup that asks,
 * named to the test workers in an environment variable they inherit, and removed by the last teardown.
 */

interface RunResource {
  value: Promise<string>;
  users: number;
}

// On globalThis: the projects' globalSetup files may be loaded as separate module instances of one process.
const shared = globalThis as typeof globalThis & { memberDappRunResources?: Map<string, RunResource> };

/**
 * For a globalSetup: makes the resource once for the run, names it in `envName`, and returns the teardown; the last
 * teardown forgets the name and removes the resource.
 *
 * @param envName - the variable the workers read the resource's name from (also the resource's key)
 * @param make - makes it, once; resolves to its name (a folder, a database)
 * @param remove - removes it, after the last teardown
 * @example return shareForRun(PGLITE_TEMPLATE_ENV, createTemplate, (dir) => rm(dir, { recursive: true, force: true }));
 */
export async function shareForRun(envName: string, make: () => Promise<string>, remove: (value: string) => Promise<void>): Promise<() => Promise<void>> {
  const runs = (shared.memberDappRunResources ??= new Map());
  let run = runs.get(envName);
  if (!run) {
    run = { value: make(), users: 0 };
    runs.set(envName, run);
  }
  const own = run;
  own.users += 1;
  process.env[envName] = await own.value;
  return async () => {
    own.users -= 1;
    if (own.users > 0) return;
    runs.delete(envName);
    delete process.env[envName];
    await remove(await own.value);
  };
}
