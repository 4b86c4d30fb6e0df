import { defineConfig } from 'drizzle-kit';

// drizzle-kit reads this for `npm run db:generate`; paths are relative to the repo root, where npm runs it.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/db/migrations',
  strict: true,
  verbose: true,
});
