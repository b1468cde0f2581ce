import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** PEM file paths of a throwaway CA and the certificates it issued (each key unencrypted, P-256). */
export interface TestCa {
  dir: string;
  caCert: string;
  caKey: string;
  /** For 127.0.0.1 and localhost (subjectAltName), server authentication. */
  serverCert: string;
  serverKey: string;
  /** CN workyard-test-client, client authentication. */
  clientCert: string;
  clientKey: string;
}

const DAYS = '2';

async function openssl(args: string[], cwd: string): Promise<void> {
  try {
    await run('openssl', args, { cwd });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT')
      throw new Error('the openssl command is needed to issue test certificates (apt-get install openssl)', { cause: err });
    throw new Error(`openssl ${args[0]} failed: ${e.stderr ?? e.message}`, { cause: err });
  }
}

async function newKeyAndRequest(dir: string, name: string, subject: string): Promise<void> {
  await openssl(
    [
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
      '-subj',
      subject,
    ],
    dir,
  );
}

async function issue(dir: string, name: string, extensions: string[]): Promise<void> {
  await writeFile(path.join(dir, `${name}.ext`), `${extensions.join('\n')}\n`);
  await openssl(
    ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', DAYS, '-sha256'].concat([
      '-extfile',
      `${name}.ext`,
      '-out',
      `${name}.pem`,
    ]),
    dir,
  );
}

/**
 * A CA, a server certificate for 127.0.0.1/localhost and a client certificate, made with Debian's `openssl` command
 * in `dir` (node:crypto cannot issue X.509). X.509 v3 with the extensions strict verifiers (rustls, Go) require.
 */
export async function makeTestCa(dir: string): Promise<TestCa> {
  await openssl(
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem']
      .concat(['-days', DAYS, '-sha256', '-subj', '/CN=Workyard test CA'])
      .concat(['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']),
    dir,
  );
  await newKeyAndRequest(dir, 'server', '/CN=localhost');
  await issue(dir, 'server', [
    'basicConstraints=critical,CA:FALSE',
    'keyUsage=critical,digitalSignature',
    'extendedKeyUsage=serverAuth',
    'subjectAltName=IP:127.0.0.1,DNS:localhost',
  ]);
  await newKeyAndRequest(dir, 'client', '/CN=workyard-test-client');
  await issue(dir, 'client', ['basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature', 'extendedKeyUsage=clientAuth']);
  const at = (file: string) => path.join(dir, file);
  return {
    dir,
    caCert: at('ca.pem'),
    caKey: at('ca.key'),
    serverCert: at('server.pem'),
    serverKey: at('server.key'),
    clientCert: at('client.pem'),
    clientKey: at('client.key'),
  };
}
