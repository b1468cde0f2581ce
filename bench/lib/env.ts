import { Runtime, DefaultLogger } from '@temporalio/worker';
import type { Client } from '@temporalio/client';
import { createDb, migrateLatest, type Knex } from '../../src/db/knex';
import { startTemporalDevServer, type DevServer } from '../../src/dev/temporalDevServer';
import { createScratchDatabase, type ScratchDatabase } from '../../src/dev/scratchDatabase';
import { connectTemporal } from '../../src/temporal/client';

export interface BenchEnv {
  databaseUrl: string;
  db: Knex;
  temporal: DevServer;
  client: Client;
  close(): Promise<void>;
}

/** Fresh servers for one bench run: a scratch database (DATABASE_URL's server or embedded) and an in-memory dev server. */
export async function startBenchEnv(): Promise<BenchEnv> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const [database, temporal]: [ScratchDatabase, DevServer] = await Promise.all([
    createScratchDatabase('workyard_bench'),
    startTemporalDevServer(),
  ]);
  const db = createDb(database.url, 10);
  await migrateLatest(db);
  const client = await connectTemporal(temporal.address, temporal.namespace);
  return {
    databaseUrl: database.url,
    db,
    temporal,
    client,
    async close() {
      await client.connection.close();
      await db.destroy();
      await temporal.stop();
      await database.drop();
    },
  };
}
