import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface CertPair {
  certPath: string;
  keyPath: string;
}

export interface ClusterCerts {
  caPath: string;
  /** The frontend's certificate: SAN 127.0.0.1 and localhost. */
  server: CertPair;
  /** What clients (the app, its workers, the CLI, the tests) present. */
  client: CertPair;
  /** What the server's own worker service presents to the frontend. */
  systemWorker: CertPair;
  serverName: string;
}

const DAYS = '30';
const END_ENTITY = ['basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature', 'subjectKeyIdentifier=hash'];

async function openssl(args: string[]): Promise<void> {
  try {
    await run('openssl', args);
  } catch (err) {
    const { stderr } = err as { stderr?: string };
    throw new Error(`openssl ${args[0]} failed: ${stderr?.trim() || (err as Error).message}`, { cause: err });
  }
}

/** A P-256 key and certificate signed by the CA, with the given extensions. */
async function issue(dir: string, name: string, subject: string, extensions: string[], caPath: string, caKey: string): Promise<CertPair> {
  const keyPath = path.join(dir, `${name}.key`);
  const certPath = path.join(dir, `${name}.pem`);
  const csr = path.join(dir, `${name}.csr`);
  const ext = path.join(dir, `${name}.ext`);
  await openssl([
    'req',
    '-new',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    keyPath,
    '-out',
    csr,
    '-subj',
    subject,
  ]);
  await writeFile(ext, [...END_ENTITY, 'authorityKeyIdentifier=keyid', ...extensions].join('\n') + '\n');
  await openssl(
    ['x509', '-req', '-in', csr, '-CA', caPath, '-CAkey', caKey, '-CAcreateserial', '-CAserial', path.join(dir, 'ca.srl')].concat([
      '-out',
      certPath,
      '-days',
      DAYS,
      '-sha256',
      '-extfile',
      ext,
    ]),
  );
  await Promise.all([rm(csr), rm(ext)]);
  return { certPath, keyPath };
}

/** A throwaway CA, the frontend's server certificate and two client certificates, made with the openssl command. */
export async function makeClusterCerts(dir: string): Promise<ClusterCerts> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const caPath = path.join(dir, 'ca.pem');
  const caKey = path.join(dir, 'ca.key');
  await openssl(
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', caKey, '-out', caPath]
      .concat(['-days', DAYS, '-sha256', '-subj', '/CN=Workyard test cluster CA'])
      .concat(['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']),
  );
  const serverName = 'localhost';
  const server = await issue(
    dir,
    'frontend',
    `/CN=${serverName}`,
    ['extendedKeyUsage=serverAuth', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
    caPath,
    caKey,
  );
  const client = await issue(dir, 'client', '/CN=workyard', ['extendedKeyUsage=clientAuth'], caPath, caKey);
  const systemWorker = await issue(dir, 'system-worker', '/CN=temporal-system-worker', ['extendedKeyUsage=clientAuth'], caPath, caKey);
  return { caPath, server, client, systemWorker, serverName };
}
