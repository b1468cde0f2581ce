import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load, YAML11_SCHEMA } from 'js-yaml';
import { CONFIG_KEYS } from '../../src/config';

const root = path.resolve(__dirname, '../..');
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');

interface Service {
  image?: string;
  entrypoint?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  env_file?: unknown;
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
}

// YAML 1.1, as compose reads it: `<<` merges the x-app anchor into each app service.
const compose = load(read('docker-compose.yml'), { schema: YAML11_SCHEMA }) as { services: Record<string, Service> };
const services = compose.services;

/** The services that run the app image (every one of them loads the configuration). */
const APP_SERVICES = ['api', 'worker', 'smtp-server', 'migrate', 'temporal-setup', 'schedules'];
const LONG_RUNNING = ['api', 'worker', 'smtp-server'];
/** Read by the OpenTelemetry SDK (src/telemetry/tracing.ts), not by src/config.ts. */
const TRACING_KEYS = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_SDK_DISABLED'];
/**
 * Set in the file itself: paths and listen ports inside the container (the image, the volumes, the published and
 * scraped ports depend on them), and the two templates whose braces compose interpolation cannot carry in a default.
 */
const FIXED_IN_CONTAINER = [
  'NODE_ENV',
  'HOST',
  'PORT',
  'METRICS_PORT',
  'DATA_DIR',
  'WORKFLOW_BUNDLE_PATH',
  'SMTP_SUBMISSION_HOST',
  'SMTP_SUBMISSION_PORT',
  'SMTP_SUBMISSION_TLS_PORT',
  'COMMERCE_SHOP_URL_TEMPLATE',
  'SITE_CRAWL_ORIGIN_TEMPLATE',
];

const sorted = (keys: Iterable<string>): string[] => [...keys].sort();
const interpolation = (value: string): RegExpExecArray | null => /^\$\{([A-Z0-9_]+)(:-|:\?)(.*)\}$/s.exec(value);

/** The `host:container` pairs a service publishes, as [host address or '', host port, container port]. */
function published(service: Service): [string, string, string][] {
  return (service.ports ?? []).map((spec) => {
    const parts = String(spec).split(':');
    return parts.length === 3 ? [parts[0]!, parts[1]!, parts[2]!] : ['', parts[0]!, parts[1] ?? parts[0]!];
  });
}

describe('docker-compose.yml', () => {
  it('every configuration variable is passed to each app service, and nothing the configuration does not read', () => {
    const expected = sorted([...CONFIG_KEYS, ...TRACING_KEYS]);
    for (const name of APP_SERVICES) {
      assert.ok(services[name], `service ${name} is missing`);
      assert.deepEqual(sorted(Object.keys(services[name].environment ?? {})), expected, `environment of ${name}`);
    }
  });

  it('each passed variable is taken from the environment or .env with its default, except the container-internal ones', () => {
    const environment = services.api!.environment!;
    for (const [name, value] of Object.entries(environment)) {
      const match = interpolation(String(value));
      if (FIXED_IN_CONTAINER.includes(name)) {
        assert.equal(match, null, `${name} is fixed by the container layout, not taken from the environment`);
        continue;
      }
      assert.ok(match, `${name}: "${value}" is not \${${name}:-default} or \${${name}:?message}`);
      assert.equal(match[1], name, `${name} reads \${${match[1]}}`);
    }
    assert.equal(interpolation(environment.SECRET_HASH_KEY!)?.[2], ':?', 'SECRET_HASH_KEY is required');
  });

  it('.env.example lists every variable taken from the environment, each with a comment, and no value for a secret', () => {
    const example = read('.env.example');
    const lines = example.split('\n');
    const listed = new Map<string, string>();
    lines.forEach((line, i) => {
      const m = /^([A-Z0-9_]+)=(.*)$/.exec(line);
      if (!m) return;
      assert.match(lines[i - 1] ?? '', /^#/, `${m[1]} has a comment above it`);
      listed.set(m[1]!, m[2]!);
    });
    const fromEnvironment = Object.keys(services.api!.environment!).filter((n) => !FIXED_IN_CONTAINER.includes(n));
    assert.deepEqual(sorted(listed.keys()), sorted([...fromEnvironment, 'GRAFANA_ADMIN_PASSWORD']));
    for (const [name, value] of listed) {
      if (/SECRET|KEY|TOKEN|PASSWORD|SMTP_URL/.test(name)) assert.equal(value, '', `${name} has no value in the example`);
    }
  });

  it('migrate, schedules sync and temporal setup run once, through the image entrypoint, before the app services start', () => {
    assert.equal(services['temporal-admin'], undefined, 'search attributes are registered by `temporal setup` only');
    assert.deepEqual(services['temporal-setup']!.command, ['temporal', 'setup']);
    assert.deepEqual(services.migrate!.command, ['migrate']);
    for (const name of ['temporal-setup', 'migrate', 'schedules'])
      assert.equal(services[name]!.entrypoint, undefined, `${name} keeps the image entrypoint`);
    assert.deepEqual(services.schedules!.command, ['schedules', 'sync']);
    for (const name of LONG_RUNNING) {
      const deps = services[name]!.depends_on ?? {};
      assert.equal(deps.schedules?.condition, 'service_completed_successfully', `${name} waits for the schedule sync`);
      assert.equal(deps.migrate?.condition, 'service_completed_successfully', `${name} waits for migrate`);
      assert.equal(deps['temporal-setup']?.condition, 'service_completed_successfully', `${name} waits for temporal-setup`);
    }
  });

  it('the smtp-server service runs the submission server with ports 587 and 465 published', () => {
    const smtp = services['smtp-server']!;
    assert.deepEqual(smtp.command, ['smtp-server']);
    const env = smtp.environment!;
    assert.equal(env.SMTP_SUBMISSION_HOST, '0.0.0.0');
    const ports = published(smtp);
    assert.deepEqual(sorted(ports.map(([, host]) => host)), ['465', '587']);
    for (const [address, host, container] of ports) {
      assert.equal(address, '', `SMTP port ${host} is public (AUTH is required)`);
      const expected = host === '587' ? env.SMTP_SUBMISSION_PORT : env.SMTP_SUBMISSION_TLS_PORT;
      assert.equal(container, expected, `published ${host} reaches the server's port`);
    }
  });

  it('ports without authentication are published on 127.0.0.1 only; the API and SMTP ports stay public', () => {
    const publicPorts = new Set(['api:3000', 'smtp-server:587', 'smtp-server:465']);
    for (const [name, service] of Object.entries(services)) {
      for (const [address, host] of published(service)) {
        if (publicPorts.has(`${name}:${host}`)) assert.equal(address, '', `${name}:${host} is public`);
        else assert.equal(address, '127.0.0.1', `${name} publishes ${host} on every interface`);
      }
    }
    assert.ok(published(services.api!).some(([, host]) => host === '3000'));
  });

  it('the app image runs on a maintained Node LTS as a non-root user, with no secrets baked in or copied', () => {
    const dockerfile = read('Dockerfile');
    const from = /^FROM\s+(\S+)/m.exec(dockerfile)?.[1];
    assert.match(from ?? '', /^node:(22|24)(\.\d+)*-bookworm-slim$/);
    const user = [...dockerfile.matchAll(/^USER\s+(\S+)/gm)].at(-1)?.[1];
    assert.ok(user && user !== 'root' && user !== '0', `runs as ${user}`);
    assert.doesNotMatch(dockerfile, /^(ENV|ARG)\s[^\n]*(SECRET|_KEY|TOKEN|PASSWORD)/m);
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['.env', '.env.*', '.data', 'node_modules']) assert.ok(ignored.includes(entry), `.dockerignore has ${entry}`);
  });
});
