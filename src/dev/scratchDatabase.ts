import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embeddedPostgres';

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh database (tests, benchmarks): on DATABASE_URL's server when set, else on an embedded server. */
export async function createScratchDatabase(prefix = 'workyard_test'): Promise<ScratchDatabase> {
  let embedded: EmbeddedDatabase | undefined;
  let scratchDir: string | undefined;
  if (!process.env.DATABASE_URL) {
    scratchDir = await mkdtemp(path.join(os.tmpdir(), 'workyard-scratch-'));
    await chmod(scratchDir, 0o755); // the `postgres` user runs the server when root starts it
    embedded = await startEmbeddedPostgres(path.join(scratchDir, 'postgres'), { persistent: false });
  }
  const serverUrl = process.env.DATABASE_URL ?? embedded!.serverUrl;
  const name = `${prefix}_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  return {
    url: withDatabase(serverUrl, name),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
      await embedded?.stop();
      if (scratchDir) await rm(scratchDir, { recursive: true, force: true });
    },
  };
}
