/**
 * The start's word on synchronous replication (server/db/replication.ts; docs/deploy/backups.md): the test cluster
 * is a primary without a standby, so PostgreSQL is warned about; PGlite has no standby to ask about. The failover run
 * (tests/failover) is the primary with a synchronous standby, where the servers start without it.
 */
import { expect, it } from 'vitest';
import { synchronousStandbyWarning } from '../../server/db/replication';
import { describeWithDatabases } from './support/harness';

describeWithDatabases('synchronous replication at start', (ctx) => {
  it('warns on a PostgreSQL primary without a synchronous standby, and says nothing on PGlite', async () => {
    const warning = await synchronousStandbyWarning(ctx.db, ctx.database.driver);
    if (ctx.target === 'postgres') expect(warning).toMatch(/without a synchronous standby \(synchronous_standby_names is empty\)/);
    else expect(warning).toBeUndefined();
  });
});
