import { statSync } from 'node:fs';
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { inspect } from 'node:util';
import type { TLSConfig } from '@temporalio/client';
import {
  loadClientConfigProfile,
  loadConfigData,
  toClientOptions,
  type ClientConfigProfile,
  type ClientConfigTLS,
  type ConfigDataSource,
} from '@temporalio/envconfig';

/** A setting of the Temporal connection that cannot be used; the message starts with the variable to fix. */
export class TemporalConnectionConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemporalConnectionConfigError';
  }
}

interface SecurityOptions {
  tls?: TLSConfig | boolean;
  apiKey?: string;
  metadata?: Record<string, string>;
}

/**
 * What a connection sends besides its address: TLS settings (key material), an API key, gRPC headers. Kept in private
 * fields: logging or printing the object shows only its summary.
 */
export class TemporalSecurity {
  readonly #options: SecurityOptions;
  /** e.g. `TLS: client certificate, API key: set`; never a secret. */
  readonly summary: string;

  /** `origin`: the variables (or the profile) that set TLS or the API key, for messages. */
  constructor(
    options: SecurityOptions = {},
    readonly origin: string[] = [],
  ) {
    this.#options = options;
    this.summary = summarize(options);
  }

  /** Neither TLS nor an API key: what the dev server speaks. */
  get isPlain(): boolean {
    return !this.#options.tls && this.#options.apiKey === undefined;
  }

  get tlsOn(): boolean {
    return Boolean(this.#options.tls);
  }

  /** The options Connection.connect and NativeConnection.connect take besides the address. */
  connectOptions(): SecurityOptions {
    return { ...this.#options };
  }

  toJSON(): string {
    return this.summary;
  }

  [inspect.custom](): string {
    return `TemporalSecurity(${this.summary})`;
  }
}

function summarize({ tls, apiKey }: SecurityOptions): string {
  const tlsText = !tls ? 'off' : typeof tls === 'object' && tls.clientCertPair ? 'client certificate' : 'on';
  return `TLS: ${tlsText}${apiKey === undefined ? '' : ', API key: set'}`;
}

export interface TemporalConnectionSettings {
  /** TEMPORAL_ADDRESS, else the profile's; absent when neither names one. */
  address?: string;
  /** TEMPORAL_NAMESPACE, else the profile's, else `default`. */
  namespace: string;
  security: TemporalSecurity;
}

const DEFAULT_NAMESPACE = 'default';
/** The variables that turn TLS or an API key on. */
const SECURING_VARS =
  /^TEMPORAL_(API_KEY|TLS|TLS_CLIENT_CERT_(PATH|DATA)|TLS_CLIENT_KEY_(PATH|DATA)|TLS_SERVER_CA_CERT_(PATH|DATA)|TLS_SERVER_NAME)$/;

interface PemSource {
  field: keyof Pick<ClientConfigTLS, 'clientCert' | 'clientKey' | 'serverCACert'>;
  env: string;
  toml: string;
}

const PEM_SOURCES: PemSource[] = [
  { field: 'clientCert', env: 'TEMPORAL_TLS_CLIENT_CERT', toml: 'client_cert' },
  { field: 'clientKey', env: 'TEMPORAL_TLS_CLIENT_KEY', toml: 'client_key' },
  { field: 'serverCACert', env: 'TEMPORAL_TLS_SERVER_CA_CERT', toml: 'server_ca_cert' },
];

/**
 * The Temporal connection as Temporal's own tools read it (@temporalio/envconfig): TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE,
 * TEMPORAL_API_KEY, TEMPORAL_TLS, TEMPORAL_TLS_* and TEMPORAL_GRPC_META_*, over the profile TEMPORAL_PROFILE (default
 * `default`) of the TOML file TEMPORAL_CONFIG_FILE. A profile file is read only when one of those two is set, so an
 * environment without them connects the same way on every machine. An API key turns TLS on unless TEMPORAL_TLS=false.
 * Certificates and keys are read and checked here, so a missing file or a bad PEM stops start-up naming its variable.
 */
export function loadTemporalConnectionSettings(env: NodeJS.ProcessEnv): TemporalConnectionSettings {
  const vars = nonEmpty(env);
  if (vars.TEMPORAL_TLS_DISABLE_HOST_VERIFICATION === 'true' || vars.TEMPORAL_TLS_DISABLE_HOST_VERIFICATION === '1') {
    throw new TemporalConnectionConfigError(
      "TEMPORAL_TLS_DISABLE_HOST_VERIFICATION: the TypeScript SDK always verifies the server's certificate; set " +
        'TEMPORAL_TLS_SERVER_NAME to a name in it, or TEMPORAL_TLS_SERVER_CA_CERT_PATH to the CA that issued it',
    );
  }
  const usesFile = vars.TEMPORAL_CONFIG_FILE !== undefined || vars.TEMPORAL_PROFILE !== undefined;
  const file = vars.TEMPORAL_CONFIG_FILE ?? 'the default config file (temporalio/temporal.toml under XDG_CONFIG_HOME or ~/.config)';
  const profileLabel = `profile "${vars.TEMPORAL_PROFILE ?? 'default'}" in ${file}`;
  if (vars.TEMPORAL_CONFIG_FILE !== undefined) requireFile(vars.TEMPORAL_CONFIG_FILE);

  let profile: ClientConfigProfile;
  try {
    profile = loadClientConfigProfile({ disableFile: !usesFile, overrideEnvVars: vars });
  } catch (err) {
    throw profileError(err, vars, file);
  }

  const where = (source: PemSource, kind: 'path' | 'data') => {
    const name = `${source.env}_${kind.toUpperCase()}`;
    return vars[name] !== undefined ? name : `tls.${source.toml}_${kind} of ${profileLabel}`;
  };
  const tls = profile.tls && !profile.tls.disabled ? loadPem(profile.tls, where) : profile.tls;
  const { connectionOptions, namespace } = toClientOptions({ ...profile, tls });
  const origin = [...Object.keys(vars).filter((name) => SECURING_VARS.test(name)), ...(usesFile ? [profileLabel] : [])];
  const security = new TemporalSecurity(
    { tls: connectionOptions.tls ?? undefined, apiKey: connectionOptions.apiKey, metadata: profile.grpcMeta },
    origin.sort(),
  );
  return { address: connectionOptions.address, namespace: namespace ?? DEFAULT_NAMESPACE, security };
}

/** The environment without empty values (compose passes unset variables as empty ones), as envconfig reads it. */
function nonEmpty(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    // An empty TEMPORAL_GRPC_META_X removes the profile's header X, as envconfig documents.
    if (value !== undefined && (value.trim() !== '' || name.startsWith('TEMPORAL_GRPC_META_'))) out[name] = value;
  }
  return out;
}

function requireFile(path: string): void {
  try {
    if (!statSync(path).isFile()) throw new TemporalConnectionConfigError(`TEMPORAL_CONFIG_FILE: ${path} is not a file`);
  } catch (err) {
    if (err instanceof TemporalConnectionConfigError) throw err;
    throw new TemporalConnectionConfigError(`TEMPORAL_CONFIG_FILE: cannot read ${path} (${fileProblem(err)})`);
  }
}

function profileError(err: unknown, vars: Record<string, string>, file: string): TemporalConnectionConfigError {
  const error = err as Error & { line?: number; column?: number; code?: string };
  const missing = /^Profile '(.*)' not found/.exec(error.message ?? '');
  if (missing) return new TemporalConnectionConfigError(`TEMPORAL_PROFILE: there is no profile "${missing[1]}" in ${file}`);
  const both = /^Cannot specify both (\w+)_path and \1_data/.exec(error.message ?? '');
  if (both) {
    const env = PEM_SOURCES.find((s) => s.toml === both[1])?.env ?? 'TEMPORAL_TLS';
    return new TemporalConnectionConfigError(
      `${env}_PATH / ${env}_DATA: both a path and PEM data are given (in the environment or the profile's tls.${both[1]}_path / _data); keep one`,
    );
  }
  if (typeof error.line === 'number') {
    // smol-toml appends the lines around the error to its message: they may hold an api_key.
    const reason = (error.message ?? '').split('\n')[0];
    return new TemporalConnectionConfigError(`TEMPORAL_CONFIG_FILE: ${file}, line ${error.line}, column ${error.column}: ${reason}`);
  }
  if (error.code) return new TemporalConnectionConfigError(`TEMPORAL_CONFIG_FILE: cannot read ${file} (${fileProblem(err)})`);
  const variable = vars.TEMPORAL_CONFIG_FILE !== undefined ? 'TEMPORAL_CONFIG_FILE' : 'TEMPORAL_PROFILE';
  return new TemporalConnectionConfigError(`${variable}: ${file}: ${(error.message ?? String(err)).split('\n')[0]}`);
}

function fileProblem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES') return 'permission denied';
  if (code === 'EISDIR') return 'a directory, not a file';
  return code ?? String(err);
}

/** Reads each certificate and key once and checks it is PEM of its kind; the client certificate and key must be a pair. */
function loadPem(tls: ClientConfigTLS, where: (source: PemSource, kind: 'path' | 'data') => string): ClientConfigTLS {
  const loaded: Partial<Record<PemSource['field'], { bytes: Buffer; name: string }>> = {};
  for (const source of PEM_SOURCES) {
    const from: ConfigDataSource | undefined = tls[source.field];
    if (!from) continue;
    const isPath = 'path' in from;
    const name = where(source, isPath ? 'path' : 'data');
    let bytes: Uint8Array | undefined;
    try {
      bytes = loadConfigData(from);
    } catch (err) {
      throw new TemporalConnectionConfigError(`${name}: cannot read ${isPath ? from.path : 'the data'} (${fileProblem(err)})`);
    }
    if (bytes) loaded[source.field] = { bytes: Buffer.from(bytes), name };
  }
  const { clientCert, clientKey, serverCACert } = loaded;
  if (serverCACert) certificateOf(serverCACert.bytes, serverCACert.name);
  if (clientCert && !clientKey)
    throw new TemporalConnectionConfigError(
      `${clientCert.name}: a client certificate needs its key (TEMPORAL_TLS_CLIENT_KEY_PATH or TEMPORAL_TLS_CLIENT_KEY_DATA)`,
    );
  if (clientKey && !clientCert)
    throw new TemporalConnectionConfigError(
      `${clientKey.name}: a client key needs its certificate (TEMPORAL_TLS_CLIENT_CERT_PATH or TEMPORAL_TLS_CLIENT_CERT_DATA)`,
    );
  if (clientCert && clientKey) {
    const certificate = certificateOf(clientCert.bytes, clientCert.name);
    const key = privateKeyOf(clientKey.bytes, clientKey.name);
    if (!certificate.checkPrivateKey(key))
      throw new TemporalConnectionConfigError(`${clientKey.name}: this key does not belong to the client certificate (${clientCert.name})`);
  }
  const data = (field: PemSource['field']) => (loaded[field] ? { data: loaded[field].bytes } : undefined);
  return { ...tls, clientCert: data('clientCert'), clientKey: data('clientKey'), serverCACert: data('serverCACert') };
}

function certificateOf(pem: Buffer, name: string): X509Certificate {
  if (!pem.toString('latin1').includes('-----BEGIN CERTIFICATE-----'))
    throw new TemporalConnectionConfigError(`${name}: not a PEM certificate (no "-----BEGIN CERTIFICATE-----" line)`);
  try {
    return new X509Certificate(pem);
  } catch {
    throw new TemporalConnectionConfigError(`${name}: not a valid PEM certificate`);
  }
}

function privateKeyOf(pem: Buffer, name: string): KeyObject {
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem.toString('latin1')))
    throw new TemporalConnectionConfigError(`${name}: not a PEM private key (no "-----BEGIN … PRIVATE KEY-----" line)`);
  try {
    return createPrivateKey(pem);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_MISSING_PASSPHRASE')
      throw new TemporalConnectionConfigError(
        `${name}: the key is encrypted; give it unencrypted (openssl pkey -in key.pem -out plain.pem)`,
      );
    throw new TemporalConnectionConfigError(`${name}: not a valid PEM private key`);
  }
}
