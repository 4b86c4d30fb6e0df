/**
 * The bundle floor: a minimal page that imports and uses the same libraries as the SPA's first load (react,
 * react-dom/client, react-router-dom's data router, xstate, @xstate/react, i18next with react-i18next, the
 * language detector and the HTTP backend, zod) and nothing else, with one lazy `/login` route. Built with the
 * same bundler and React plugin, it is what any page on this stack costs before app code.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { keepNodeEnv } from './keepNodeEnv';
import { recordChunkModules, type ChunkModules } from './attribution';

const INDEX_HTML = `<!doctype html>
<html lang="zh">
  <head><meta charset="UTF-8" /><title>floor</title></head>
  <body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body>
</html>
`;

// The actor and i18n live in their own module so the lazy route can use them without importing the entry.
const SHARED_TS = `import i18next from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import HttpBackend from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';
import { assign, createActor, createMachine } from 'xstate';
import { z } from 'zod';

export const Param = z.object({ chainId: z.number().int(), siweStatement: z.string().min(1) });

export const actor = createActor(
  createMachine({
    id: 'floor',
    initial: 'idle',
    context: { count: 0 },
    states: {
      idle: { on: { PRESS: { target: 'busy', actions: assign({ count: ({ context }) => context.count + 1 }) } } },
      busy: { on: { DONE: 'idle' } },
    },
  }),
).start();

export const i18n = i18next.createInstance();
void i18n
  .use(HttpBackend)
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({ fallbackLng: 'zh', ns: ['common', 'login'], backend: { loadPath: '/locales/{{lng}}/{{ns}}.json' } });
`;

const MAIN_TSX = `import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { Outlet, RouterProvider, createBrowserRouter } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import { Param, actor, i18n } from './shared';

function Root() {
  const count = useSelector(actor, (snapshot) => snapshot.context.count);
  const { t } = useTranslation('common');
  return <main data-count={count} title={t('title')}><Outlet /></main>;
}

const router = createBrowserRouter([
  { path: '/', Component: Root, children: [{ path: 'login/:inviteCode?', lazy: () => import('./login') }] },
]);

void fetch('/api/dapp/dappParam')
  .then((response) => response.json())
  .then((body) => actor.send({ type: Param.safeParse(body.result).success ? 'DONE' : 'PRESS' }));

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <I18nextProvider i18n={i18n}>
      <Suspense fallback={null}>
        <RouterProvider router={router} />
      </Suspense>
    </I18nextProvider>
  </StrictMode>,
);
`;

const LOGIN_TSX = `import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { actor } from './shared';

export function Component() {
  const { t } = useTranslation('login');
  const { inviteCode } = useParams();
  return <button onClick={() => actor.send({ type: 'PRESS' })}>{t('title')} {inviteCode}</button>;
}
`;

export interface FloorBuild {
  /** The temp project's root (module ids are under it). */
  root: string;
  /** Output folder (inside the temp dir). */
  outDir: string;
  /** Manifest key of the lazy route. */
  routeKey: string;
  modules: ChunkModules;
  /** Removes the temp dir. */
  cleanup(): Promise<void>;
}

/**
 * Writes the minimal page to a temp dir (node_modules linked to the repo's) and builds it with Vite's JS API.
 *
 * @param repoRoot - repository root, for node_modules
 * @returns where the build is, and a cleanup function
 * @example
 * const floor = await buildFloorPage(repoRoot);
 * try { readManifest(floor.outDir); } finally { await floor.cleanup(); }
 */
export async function buildFloorPage(repoRoot: string): Promise<FloorBuild> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-floor-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    await mkdir(path.join(dir, 'src'));
    await symlink(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    await writeFile(path.join(dir, 'index.html'), INDEX_HTML);
    await writeFile(path.join(dir, 'src', 'shared.ts'), SHARED_TS);
    await writeFile(path.join(dir, 'src', 'main.tsx'), MAIN_TSX);
    await writeFile(path.join(dir, 'src', 'login.tsx'), LOGIN_TSX);
    const outDir = path.join(dir, 'dist');
    const modules: ChunkModules = new Map();
    await keepNodeEnv(() =>
      build({
        configFile: false,
        root: dir,
        cacheDir: path.join(dir, '.vite-cache'),
        logLevel: 'silent',
        plugins: [react(), recordChunkModules(modules)],
        build: { outDir, manifest: true, sourcemap: false },
      }),
    );
    return { root: dir, outDir, routeKey: 'src/login.tsx', modules, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
