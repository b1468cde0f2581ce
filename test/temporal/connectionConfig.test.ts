import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inspect } from 'node:util';
import type { TLSConfig } from '@temporalio/client';
import {
  loadTemporalConnectionSettings,
  TemporalConnectionConfigError,
  type TemporalConnectionSettings,
} from '../../src/temporal/connectionConfig';
import { writeStackInfo } from '../../src/runtime/stackFile';
import { harness } from '../helpers/harness';
import { makeTestCa, type TestCa } from '../helpers/testCa';
import { startTlsProxy, type TlsProxy } from '../helpers/tlsProxy';
import { eventually } from '../jobs/jobTestKit';
import { childEnv, RunningMain, removeTempDirs, runMain, tempDir } from '../runtime/child';

const API_KEY = `wy-test-api-key-${randomBytes(8).toString('hex')}`;
/** A command's own deadline: a refused TLS connection waits for the client's 10 s connect deadline, and CI machines are busy. */
const CHILD_MS = 150_000;
const newNamespace = () => `wy-tls-${randomBytes(4).toString('hex')}`;

/** The settings of `env` alone (no HOME: no default profile file can be found). */
const settingsOf = (env: Record<string, string>): TemporalConnectionSettings => loadTemporalConnectionSettings(env);

function refusal(env: Record<string, string>): string {
  try {
    loadTemporalConnectionSettings(env);
  } catch (err) {
    assert.ok(err instanceof TemporalConnectionConfigError, `expected a TemporalConnectionConfigError, got ${inspect(err)}`);
    return err.message;
  }
  assert.fail('the settings were accepted');
}

/** A child's environment without this process's Temporal TLS, API key and profile variables (a TLS cluster run sets them). */
function isolatedEnv(overrides: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env = childEnv({});
  for (const name of Object.keys(env)) if (/^TEMPORAL_(API_KEY|TLS|PROFILE|CONFIG_FILE|GRPC_META_)/.test(name)) delete env[name];
  for (const [name, value] of Object.entries(overrides)) if (value !== undefined) env[name] = value;
  return env;
}

const tlsOf = (settings: TemporalConnectionSettings) => settings.security.connectOptions().tls as TLSConfig;
const noStackTrace = (text: string) => assert.doesNotMatch(text, /^\s+at /m, `a stack trace was printed:\n${text}`);

describe('Temporal connection settings: TLS, mTLS, API key and profiles, read as Temporal tools read them', function () {
  this.timeout(300_000);
  let ca: TestCa;
  let dir: string;

  before(async () => {
    dir = await tempDir('wy-temporal-tls-');
    ca = await makeTestCa(dir);
  });
  after(removeTempDirs);

  describe('from the environment', () => {
    it('TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE alone give a plain connection, as before', () => {
      const settings = settingsOf({ TEMPORAL_ADDRESS: 'temporal.internal:7233', TEMPORAL_NAMESPACE: 'jobs' });
      assert.equal(settings.address, 'temporal.internal:7233');
      assert.equal(settings.namespace, 'jobs');
      assert.ok(settings.security.isPlain);
      assert.equal(settings.security.connectOptions().tls, undefined);
      assert.equal(settings.security.summary, 'TLS: off');
      assert.equal(settingsOf({}).namespace, 'default');
      assert.equal(settingsOf({}).address, undefined);
    });

    it('empty variables (as docker compose passes unset ones) count as unset', () => {
      const settings = settingsOf({
        TEMPORAL_ADDRESS: 'temporal:7233',
        TEMPORAL_API_KEY: '',
        TEMPORAL_TLS: '',
        TEMPORAL_TLS_CLIENT_CERT_PATH: '',
      });
      assert.ok(settings.security.isPlain);
    });

    it('mTLS files given by path become the connection TLS: the CA, the client certificate and key, the server name', async () => {
      const settings = settingsOf({
        TEMPORAL_ADDRESS: '127.0.0.1:7233',
        TEMPORAL_TLS_SERVER_CA_CERT_PATH: ca.caCert,
        TEMPORAL_TLS_CLIENT_CERT_PATH: ca.clientCert,
        TEMPORAL_TLS_CLIENT_KEY_PATH: ca.clientKey,
        TEMPORAL_TLS_SERVER_NAME: 'localhost',
      });
      const tls = tlsOf(settings);
      assert.deepEqual(Buffer.from(tls.serverRootCACertificate!), await readFile(ca.caCert));
      assert.deepEqual(Buffer.from(tls.clientCertPair!.crt), await readFile(ca.clientCert));
      assert.deepEqual(Buffer.from(tls.clientCertPair!.key), await readFile(ca.clientKey));
      assert.equal(tls.serverNameOverride, 'localhost');
      assert.equal(settings.security.summary, 'TLS: client certificate');
    });

    it('PEM given as data works like a path', async () => {
      const settings = settingsOf({
        TEMPORAL_ADDRESS: '127.0.0.1:7233',
        TEMPORAL_TLS_CLIENT_CERT_DATA: await readFile(ca.clientCert, 'utf8'),
        TEMPORAL_TLS_CLIENT_KEY_DATA: await readFile(ca.clientKey, 'utf8'),
      });
      assert.deepEqual(Buffer.from(tlsOf(settings).clientCertPair!.crt), await readFile(ca.clientCert));
    });

    it('TEMPORAL_TLS=true alone turns TLS on with the system CAs; an API key turns it on too, unless TEMPORAL_TLS=false', () => {
      assert.equal(settingsOf({ TEMPORAL_ADDRESS: 'a:7233', TEMPORAL_TLS: 'true' }).security.summary, 'TLS: on');
      const withKey = settingsOf({ TEMPORAL_ADDRESS: 'ns.acct.tmprl.cloud:7233', TEMPORAL_API_KEY: API_KEY });
      assert.equal(withKey.security.connectOptions().tls, true);
      assert.equal(withKey.security.connectOptions().apiKey, API_KEY);
      assert.equal(withKey.security.summary, 'TLS: on, API key: set');
      const plainWithKey = settingsOf({ TEMPORAL_ADDRESS: 'a:7233', TEMPORAL_API_KEY: API_KEY, TEMPORAL_TLS: 'false' });
      assert.equal(plainWithKey.security.connectOptions().tls, false);
      assert.equal(plainWithKey.security.summary, 'TLS: off, API key: set');
    });

    it('the API key and the key material never show in the summary, in JSON (logs) or when inspected', async () => {
      const keyPem = await readFile(ca.clientKey, 'utf8');
      const settings = settingsOf({
        TEMPORAL_ADDRESS: 'a:7233',
        TEMPORAL_API_KEY: API_KEY,
        TEMPORAL_TLS_CLIENT_CERT_PATH: ca.clientCert,
        TEMPORAL_TLS_CLIENT_KEY_DATA: keyPem,
      });
      const keyBody = keyPem.split('\n')[1]!;
      for (const shown of [settings.security.summary, JSON.stringify(settings), inspect(settings, { depth: 10, showHidden: true })]) {
        assert.ok(!shown.includes(API_KEY), `the API key shows in ${shown}`);
        assert.ok(!shown.includes(keyBody), `the key shows in ${shown}`);
      }
      assert.equal(settings.security.summary, 'TLS: client certificate, API key: set');
    });
  });

  describe('profiles (TEMPORAL_CONFIG_FILE, TEMPORAL_PROFILE)', () => {
    let file: string;
    before(async () => {
      file = path.join(dir, 'temporal.toml');
      await writeFile(
        file,
        [
          '[profile.default]',
          'address = "temporal.default:7233"',
          'namespace = "from-default"',
          '',
          '[profile.cloud]',
          'address = "ns.acct.tmprl.cloud:7233"',
          'namespace = "ns.acct"',
          `api_key = "${API_KEY}"`,
          '',
          '[profile.mtls]',
          'address = "127.0.0.1:7233"',
          '[profile.mtls.tls]',
          `client_cert_path = "${ca.clientCert}"`,
          `client_key_path = "${ca.clientKey}"`,
          `server_ca_cert_path = "${ca.caCert}"`,
          '',
        ].join('\n'),
      );
    });

    it('TEMPORAL_CONFIG_FILE alone reads its default profile', () => {
      const settings = settingsOf({ TEMPORAL_CONFIG_FILE: file });
      assert.equal(settings.address, 'temporal.default:7233');
      assert.equal(settings.namespace, 'from-default');
      assert.ok(settings.security.isPlain);
    });

    it('TEMPORAL_PROFILE picks a profile; an API key in it turns TLS on; variables override it', () => {
      const cloud = settingsOf({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'cloud' });
      assert.equal(cloud.address, 'ns.acct.tmprl.cloud:7233');
      assert.equal(cloud.namespace, 'ns.acct');
      assert.equal(cloud.security.summary, 'TLS: on, API key: set');
      const overridden = settingsOf({
        TEMPORAL_CONFIG_FILE: file,
        TEMPORAL_PROFILE: 'cloud',
        TEMPORAL_NAMESPACE: 'other',
        TEMPORAL_TLS: 'false',
      });
      assert.equal(overridden.namespace, 'other');
      assert.equal(overridden.security.connectOptions().tls, false);
      assert.equal(settingsOf({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'mtls' }).security.summary, 'TLS: client certificate');
    });

    it('without TEMPORAL_CONFIG_FILE or TEMPORAL_PROFILE no profile file is read, not even the default one', async () => {
      const xdg = path.join(dir, 'xdg');
      await mkdir(path.join(xdg, 'temporalio'), { recursive: true });
      await writeFile(path.join(xdg, 'temporalio', 'temporal.toml'), '[profile.default]\naddress = "from-home:7233"\n');
      assert.equal(settingsOf({ XDG_CONFIG_HOME: xdg }).address, undefined);
      assert.equal(settingsOf({ XDG_CONFIG_HOME: xdg, TEMPORAL_PROFILE: 'default' }).address, 'from-home:7233');
    });

    it('a missing file, a missing profile, and a TOML error are refused naming the variable; a TOML error shows no line of the file', async () => {
      assert.match(
        refusal({ TEMPORAL_CONFIG_FILE: path.join(dir, 'nope.toml') }),
        /^TEMPORAL_CONFIG_FILE: cannot read .*nope\.toml \(no such file\)$/,
      );
      assert.match(
        refusal({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'prod' }),
        /^TEMPORAL_PROFILE: there is no profile "prod" in .*temporal\.toml$/,
      );
      const broken = path.join(dir, 'broken.toml');
      await writeFile(broken, `[profile.default]\napi_key = "${API_KEY}\naddress = "x:7233"\n`);
      const message = refusal({ TEMPORAL_CONFIG_FILE: broken });
      assert.match(message, /^TEMPORAL_CONFIG_FILE: .*broken\.toml, line 2, column \d+: /);
      assert.ok(!message.includes(API_KEY), message);
    });
  });

  describe('certificate problems stop start-up naming the variable and the cause', () => {
    it('a missing certificate file', () => {
      const missing = path.join(dir, 'missing-client.pem');
      assert.equal(
        refusal({ TEMPORAL_ADDRESS: 'a:7233', TEMPORAL_TLS_CLIENT_CERT_PATH: missing, TEMPORAL_TLS_CLIENT_KEY_PATH: ca.clientKey }),
        `TEMPORAL_TLS_CLIENT_CERT_PATH: cannot read ${missing} (no such file)`,
      );
      assert.match(
        refusal({ TEMPORAL_ADDRESS: 'a:7233', TEMPORAL_TLS_SERVER_CA_CERT_PATH: dir }),
        /^TEMPORAL_TLS_SERVER_CA_CERT_PATH: cannot read .* \(a directory, not a file\)$/,
      );
    });

    it('a file that is not PEM, a key of another certificate, a certificate without its key, PEM data that is no key', async () => {
      const notPem = path.join(dir, 'not.pem');
      await writeFile(notPem, 'hello\n');
      assert.match(
        refusal({ TEMPORAL_ADDRESS: 'a:7233', TEMPORAL_TLS_SERVER_CA_CERT_PATH: notPem }),
        /^TEMPORAL_TLS_SERVER_CA_CERT_PATH: not a PEM certificate/,
      );
      const otherKey = path.join(dir, 'other.key');
      await writeFile(otherKey, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
      assert.match(
        refusal({ TEMPORAL_ADDRESS: 'a:7233', TEMPORAL_TLS_CLIENT_CERT_PATH: ca.clientCert, TEMPORAL_TLS_CLIENT_KEY_PATH: otherKey }),
        /^TEMPORAL_TLS_CLIENT_KEY_PATH: this key does not belong to the client certificate/,
      );
      assert.match(
        refusal({ TEMPORAL_ADDRESS: 'a:7233', TEMPORAL_TLS_CLIENT_CERT_PATH: ca.clientCert }),
        /^TEMPORAL_TLS_CLIENT_CERT_PATH: a client certificate needs its key/,
      );
      const badKey = `-----BEGIN PRIVATE KEY-----\n${API_KEY}\n-----END PRIVATE KEY-----\n`;
      const message = refusal({
        TEMPORAL_ADDRESS: 'a:7233',
        TEMPORAL_TLS_CLIENT_CERT_PATH: ca.clientCert,
        TEMPORAL_TLS_CLIENT_KEY_DATA: badKey,
      });
      assert.equal(message, 'TEMPORAL_TLS_CLIENT_KEY_DATA: not a valid PEM private key');
    });

    it('TEMPORAL_TLS_DISABLE_HOST_VERIFICATION=true is refused: the TypeScript SDK cannot turn verification off', () => {
      assert.match(
        refusal({ TEMPORAL_ADDRESS: 'a:7233', TEMPORAL_TLS: 'true', TEMPORAL_TLS_DISABLE_HOST_VERIFICATION: 'true' }),
        /^TEMPORAL_TLS_DISABLE_HOST_VERIFICATION: .*TEMPORAL_TLS_SERVER_NAME/,
      );
    });

    it('a command with a missing CA file exits 1 with the variable named, no stack trace', async () => {
      const missing = path.join(dir, 'missing-ca.pem');
      const result = await runMain(
        ['temporal', 'setup'],
        isolatedEnv({ TEMPORAL_ADDRESS: harness().temporalAddress, TEMPORAL_TLS_SERVER_CA_CERT_PATH: missing, DATA_DIR: dir }),
        CHILD_MS,
      );
      assert.equal(result.code, 1, result.stdout + result.stderr);
      assert.equal(result.stderr.trim(), `error: TEMPORAL_TLS_SERVER_CA_CERT_PATH: cannot read ${missing} (no such file)`);
    });
  });

  describe('every process connects the same way', () => {
    let proxy: TlsProxy;
    before(async function () {
      // The TLS frontend here wraps a plain server; a run against a TLS cluster exercises TLS through its own suite.
      if (!loadTemporalConnectionSettings(process.env).security.isPlain) this.skip();
      proxy = await startTlsProxy(ca, harness().temporalAddress);
    });
    after(async () => {
      await proxy?.stop();
    });

    const mtlsEnv = (extra: Record<string, string | undefined> = {}) =>
      isolatedEnv({
        TEMPORAL_ADDRESS: proxy.address,
        TEMPORAL_TLS_SERVER_CA_CERT_PATH: ca.caCert,
        TEMPORAL_TLS_CLIENT_CERT_PATH: ca.clientCert,
        TEMPORAL_TLS_CLIENT_KEY_PATH: ca.clientKey,
        DATA_DIR: dir,
        ...extra,
      });

    it('with the client certificate, `temporal setup` works through a TLS frontend that requires one', async () => {
      const namespace = newNamespace();
      const before = proxy.clients.length;
      const result = await runMain(['temporal', 'setup'], mtlsEnv({ TEMPORAL_NAMESPACE: namespace }), CHILD_MS);
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.match(result.stdout, new RegExp(`^Temporal at ${proxy.address}, namespace ${namespace}: ready$`, 'm'));
      assert.ok(proxy.clients.slice(before).includes('workyard-test-client'), `proxy saw ${inspect(proxy.clients)}`);
      const { namespaceInfo } = await harness().client.connection.workflowService.describeNamespace({ namespace });
      assert.equal(namespaceInfo?.name, namespace);
    });

    it('without a client certificate the handshake is refused, and the message names the certificate variable, no stack trace', async () => {
      const refusedBefore = proxy.refused;
      const result = await runMain(
        ['temporal', 'setup'],
        mtlsEnv({ TEMPORAL_TLS_CLIENT_CERT_PATH: undefined, TEMPORAL_TLS_CLIENT_KEY_PATH: undefined, TEMPORAL_NAMESPACE: newNamespace() }),
        CHILD_MS,
      );
      assert.equal(result.code, 1, result.stdout + result.stderr);
      assert.match(
        result.stderr,
        new RegExp(
          `^error: TEMPORAL_TLS_CLIENT_CERT_PATH: TLS to Temporal at ${proxy.address} failed \\(TLS: on; set by TEMPORAL_TLS_SERVER_CA_CERT_PATH\\): ` +
            'the server refused the handshake \\(alert: certificate required\\): the server requires a client certificate',
          'm',
        ),
      );
      noStackTrace(result.stderr);
      assert.ok(proxy.refused > refusedBefore, 'the TLS frontend refused a handshake');
    });

    it('a server certificate from a CA it was not given is refused naming the CA variable', async () => {
      const result = await runMain(
        ['temporal', 'setup'],
        mtlsEnv({ TEMPORAL_TLS_SERVER_CA_CERT_PATH: undefined, TEMPORAL_NAMESPACE: newNamespace() }),
        CHILD_MS,
      );
      assert.equal(result.code, 1, result.stdout + result.stderr);
      assert.match(
        result.stderr,
        /^error: TEMPORAL_TLS_SERVER_CA_CERT_PATH: TLS to Temporal at \S+ failed \(TLS: client certificate; set by [^)]*\): the server's certificate is not trusted/m,
      );
      noStackTrace(result.stderr);
    });

    it('TLS to a plain server fails naming TEMPORAL_TLS and the cause, no stack trace', async () => {
      const result = await runMain(
        ['temporal', 'setup'],
        isolatedEnv({
          TEMPORAL_ADDRESS: harness().temporalAddress,
          TEMPORAL_TLS: 'true',
          TEMPORAL_NAMESPACE: newNamespace(),
          DATA_DIR: dir,
        }),
        CHILD_MS,
      );
      assert.equal(result.code, 1, result.stdout + result.stderr);
      assert.match(
        result.stderr,
        /^error: TEMPORAL_TLS: TLS to Temporal at \S+ failed \(TLS: on; set by TEMPORAL_TLS\): the server does not speak TLS on this port.*TEMPORAL_TLS=false/m,
      );
      noStackTrace(result.stderr);
    });

    it('the worker process polls its task queue through the same TLS connection, with the client certificate', async function () {
      this.timeout(300_000);
      const namespace = newNamespace();
      const setup = await runMain(['temporal', 'setup'], mtlsEnv({ TEMPORAL_NAMESPACE: namespace }), CHILD_MS);
      assert.equal(setup.code, 0, setup.stderr);
      const taskQueue = `tls-${randomBytes(4).toString('hex')}`;
      const before = proxy.clients.length;
      const worker = new RunningMain(
        ['worker'],
        mtlsEnv({
          TEMPORAL_NAMESPACE: namespace,
          TEMPORAL_TASK_QUEUE: taskQueue,
          DATABASE_URL: harness().databaseUrl,
          METRICS_PORT: '0',
          TEMPORAL_API_KEY: API_KEY,
          TEMPORAL_TLS_SERVER_NAME: 'localhost',
        }),
      );
      try {
        const running = await worker.waitFor(/^.*"msg":"worker running".*$/m, 240_000);
        assert.match(running[0], /"security":"TLS: client certificate, API key: set"/);
        const { workflowService } = harness().client.connection;
        await eventually(
          () => workflowService.describeTaskQueue({ namespace, taskQueue: { name: taskQueue }, taskQueueType: 1 }),
          (answer) => (answer.pollers?.length ?? 0) > 0,
          30_000,
          `a poller on ${taskQueue}`,
        );
        // The start-up check's client and the worker's own (native) connection each presented the certificate.
        assert.ok(proxy.clients.slice(before).filter((cn) => cn === 'workyard-test-client').length >= 2, inspect(proxy.clients));
      } finally {
        await worker.kill();
      }
      assert.ok(!worker.stdout.includes(API_KEY) && !worker.stderr.includes(API_KEY), 'the API key was printed');
    });
  });

  describe('TLS or an API key without an address', () => {
    it('is refused by `start` before it starts a dev server', async () => {
      const result = await runMain(['start'], isolatedEnv({ TEMPORAL_API_KEY: API_KEY, DATA_DIR: dir }), CHILD_MS);
      assert.equal(result.code, 1, result.stdout + result.stderr);
      assert.match(result.stderr, /^error: TEMPORAL_API_KEY: TLS or an API key is configured but no address .* a dev server would be used/);
      assert.ok(!result.stderr.includes(API_KEY));
    });

    it("is refused by a command that would use the running stack's dev server", async () => {
      const stackDir = await tempDir('wy-temporal-stack-');
      await writeStackInfo(stackDir, { pid: process.pid, apiUrl: 'http://127.0.0.1:1', temporalAddress: harness().temporalAddress });
      const result = await runMain(['schedules', 'sync'], isolatedEnv({ TEMPORAL_TLS: 'true', DATA_DIR: stackDir }), CHILD_MS);
      assert.equal(result.code, 1, result.stdout + result.stderr);
      assert.match(result.stderr, /^error: TEMPORAL_TLS: TLS or an API key is configured but no address .*the running stack's dev server/);
    });
  });
});
