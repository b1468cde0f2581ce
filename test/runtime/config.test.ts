import assert from 'node:assert/strict';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';
import { resolveSecretHashKey, SECRET_HASH_KEY_FILE } from '../../src/runtime/secretHashKey';
import { childEnv, removeTempDirs, runMain, tempDir } from './child';

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    assert.ok(err instanceof ConfigError, `expected a ConfigError, got ${String(err)}`);
    return err;
  }
  assert.fail('the configuration was accepted');
}

const noStackTrace = (text: string) => assert.doesNotMatch(text, /^\s+at /m, `a stack trace was printed:\n${text}`);

describe('runtime configuration', () => {
  after(removeTempDirs);

  it('a non-numeric PORT is refused with a message that names PORT', () => {
    assert.match(configError({ PORT: 'abc' }).message, /PORT/);
  });

  it('production without SECRET_HASH_KEY is refused with a message that names SECRET_HASH_KEY', () => {
    assert.match(configError({ NODE_ENV: 'production' }).message, /SECRET_HASH_KEY: is required in production/);
  });

  it('a COMMERCE_TOKEN_ENCRYPTION_KEY that is not 32 bytes of base64 is refused naming it; a good one is accepted', () => {
    assert.match(
      configError({ COMMERCE_TOKEN_ENCRYPTION_KEY: 'too-short' }).message,
      /COMMERCE_TOKEN_ENCRYPTION_KEY: must be 32 bytes, base64-encoded/,
    );
    assert.match(
      configError({ COMMERCE_TOKEN_ENCRYPTION_KEY_PREVIOUS: Buffer.alloc(16).toString('base64') }).message,
      /COMMERCE_TOKEN_ENCRYPTION_KEY_PREVIOUS/,
    );
    assert.match(configError({ COMMERCE_PARTNER_ORG_ID: 'acme' }).message, /COMMERCE_PARTNER_ORG_ID: must be a numeric organization id/);
    assert.match(
      configError({ COMMERCE_SHOP_URL_TEMPLATE: 'https://example.com' }).message,
      /COMMERCE_SHOP_URL_TEMPLATE: must contain \{shop\}/,
    );
    const key = Buffer.alloc(32, 7).toString('base64');
    assert.equal(loadConfig({ COMMERCE_TOKEN_ENCRYPTION_KEY: key }).COMMERCE_TOKEN_ENCRYPTION_KEY, key);
  });

  it('a DATABASE_URL that is not a PostgreSQL URL is refused naming DATABASE_URL', () => {
    assert.match(configError({ DATABASE_URL: 'mysql://localhost/db' }).message, /DATABASE_URL/);
  });

  it('a bad variable stops a command with exit 1, the variable named and no stack trace', async () => {
    const dataDir = await tempDir('wy-config-');
    const result = await runMain(['migrate'], childEnv({ PORT: 'abc', DATA_DIR: dataDir }));
    assert.equal(result.code, 1);
    assert.match(result.stderr, /PORT/);
    assert.equal(result.stdout, '');
    noStackTrace(result.stderr);
  });

  it('production without SECRET_HASH_KEY stops start-up with exit 1 naming the variable', async () => {
    const dataDir = await tempDir('wy-config-');
    const result = await runMain(['start'], childEnv({ NODE_ENV: 'production', DATA_DIR: dataDir }));
    assert.equal(result.code, 1);
    assert.match(result.stderr, /SECRET_HASH_KEY/);
    noStackTrace(result.stderr);
  });

  it('a command that needs a database says DATABASE_URL is required when it is unset and no stack runs', async () => {
    const dataDir = await tempDir('wy-config-');
    const result = await runMain(['account', 'create', '--name', 'Nobody'], childEnv({ DATA_DIR: dataDir }));
    assert.equal(result.code, 1);
    assert.match(result.stderr, /DATABASE_URL: is required for `account create`/);
    noStackTrace(result.stderr);
  });
});

describe('credential hash key outside production', () => {
  after(removeTempDirs);

  it('is generated once into DATA_DIR with mode 0600 and the same key is read back', async () => {
    const dataDir = await tempDir('wy-key-');
    const config = loadConfig({ DATA_DIR: dataDir });
    const first = await resolveSecretHashKey(config);
    const second = await resolveSecretHashKey(config);
    assert.equal(first.source, 'generated');
    assert.equal(second.source, 'file');
    assert.equal(second.key, first.key);
    assert.ok(first.key.length >= 32);
    const { mode } = await stat(path.join(dataDir, SECRET_HASH_KEY_FILE));
    assert.equal(mode & 0o777, 0o600);
  });

  it('SECRET_HASH_KEY wins over the file', async () => {
    const dataDir = await tempDir('wy-key-');
    const key = 'k'.repeat(40);
    const resolved = await resolveSecretHashKey(loadConfig({ DATA_DIR: dataDir, SECRET_HASH_KEY: key }));
    assert.deepEqual(resolved, { key, source: 'SECRET_HASH_KEY' });
  });
});
