import assert from 'node:assert/strict';
import { load } from 'js-yaml';
import { clusterConfigValues, readServerConfigTemplate, renderServerConfig, type ConfigValues } from './lib/serverConfig';

const pair = (name: string) => ({ certPath: `/tls/${name}.pem`, keyPath: `/tls/${name}.key` });

async function valuesFor(overrides: ConfigValues): Promise<{ template: string; values: ConfigValues }> {
  const ports = Object.fromEntries(
    ['frontend', 'history-1', 'matching', 'worker'].map((name, i) => [name, { grpcPort: 7000 + i, membershipPort: 6000 + i }]),
  );
  const values = clusterConfigValues({
    server: { host: '127.0.0.1', port: 5432, user: 'postgres', password: '' },
    databases: [
      { name: 'wy_cluster_1', schema: 'postgresql/v12/temporal' },
      { name: 'wy_cluster_1_vis', schema: 'postgresql/v12/visibility' },
    ],
    certs: {
      caPath: '/tls/ca.pem',
      server: pair('frontend'),
      client: pair('client'),
      systemWorker: pair('system-worker'),
      serverName: 'localhost',
    },
    ports,
    frontendAddress: '127.0.0.1:7000',
  });
  return { template: await readServerConfigTemplate(), values: { ...values, ...overrides } };
}

describe('the cluster server config (deploy/temporal/server-postgres.yaml, rendered by test/cluster/launcher.ts)', () => {
  it('carries a database password with quotes, colons and hashes to the server verbatim', async () => {
    const password = `it's:a #"pass"\\word`;
    const { template, values } = await valuesFor({ POSTGRES_PWD: password, POSTGRES_SEEDS: 'db.internal', DB_PORT: 5433 });
    const config = load(renderServerConfig(template, values)) as any;
    for (const store of ['default', 'visibility']) {
      assert.equal(config.persistence.datastores[store].sql.password, password);
      assert.equal(config.persistence.datastores[store].sql.connectAddr, 'db.internal:5433');
    }
    assert.equal(config.services.history.rpc.grpcPort, 7001);
    assert.equal(config.persistence.numHistoryShards, 4);
    assert.equal(config.global.tls.frontend.server.requireClientAuth, true);
  });

  it('refuses a value that would change the YAML outside a quoted string', async () => {
    const { template, values } = await valuesFor({ LOG_LEVEL: 'info\npersistence: {}' });
    assert.throws(() => renderServerConfig(template, values), /LOG_LEVEL must be a plain value/);
  });

  it('refuses to render with a placeholder left without a value', async () => {
    const { template, values } = await valuesFor({});
    delete values.FRONTEND_GRPC_PORT;
    assert.throws(() => renderServerConfig(template, values), /no value for \$\{FRONTEND_GRPC_PORT\}/);
  });
});
