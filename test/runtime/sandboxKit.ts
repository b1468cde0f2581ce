import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { withDatabaseName } from '../../src/runtime/database';
import { harness } from '../helpers/harness';
import { childEnv, removeTempDirs, RunningMain } from './child';

/** Banner lines and steps both sandbox tests read. */
export const API_LINE = /^ {2}API +(http:\/\/\S+)/m;
export const OWNER_TOKEN = /Owner session token[^\n]*?(wys_\S+)/;
export const APP_STEP = /curl -X PUT \S+\/api\/commerce\/app .* -d '(\{[^']+\})'/;
export const DEMO_SHOP = 'demo-shop.commerce.test';

/** One JSON call to the sandbox's API with a bearer token. */
export async function call(method: string, url: string, token: string, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/**
 * `start --sandbox` children on a database of their own on the harness's server: `env(dataDir)` is their environment
 * (no keys and no public URL, so the sandbox provides them), `start(env)` runs one. Registers the `after` hook that
 * stops the last one started, removes the temporary directories and drops the database.
 */
export function sandboxRuns() {
  let stack: RunningMain | undefined;
  const serverUrl = () => withDatabaseName(harness().databaseUrl, 'postgres');
  const databaseName = `workyard_sandbox_${randomBytes(4).toString('hex')}`;
  after(async () => {
    await stack?.kill();
    await removeTempDirs();
    const admin = new pg.Client({ connectionString: serverUrl() });
    await admin.connect();
    await admin.query(`drop database if exists ${pg.escapeIdentifier(databaseName)} with (force)`);
    await admin.end();
  });
  return {
    env: (dataDir: string) =>
      childEnv({
        DATA_DIR: dataDir,
        PORT: '0',
        DATABASE_URL: withDatabaseName(serverUrl(), databaseName),
        COMMERCE_TOKEN_ENCRYPTION_KEY: '',
        PUBLIC_APP_URL: '',
        SITE_PLATFORM_TOKEN_ENCRYPTION_KEY: '',
        SITE_PLATFORM_CLIENT_ID: '',
        SITE_PLATFORM_CLIENT_SECRET: '',
      }),
    start: (env: NodeJS.ProcessEnv): RunningMain => (stack = new RunningMain(['start', '--sandbox'], env)),
  };
}
