/**
 * The first step of the client's contract loading (src/api/contractLoader.ts): importing this evaluates zod's chunk
 * on its own, so that zod's start-up and the schemas' construction run in separate tasks. It re-exports one function
 * so that the import keeps zod's chunk (a bare import of a side-effect-free package would be dropped).
 */
export { object } from 'zod/mini';
