import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generate } from 'selfsigned';

export interface TlsPair {
  cert: string;
  key: string;
  /** `configured` (SMTP_SUBMISSION_TLS_CERT/_KEY) or the file of the generated self-signed certificate. */
  source: string;
}

const CERT_FILE = 'smtp-submission-cert.pem';
const KEY_FILE = 'smtp-submission-key.pem';

/**
 * The certificate of the submission ports: from configuration (each a PEM file path or the PEM itself), or for
 * local runs a self-signed pair generated once into DATA_DIR (selfsigned) and reused on later starts.
 */
export async function submissionTls(
  config: { SMTP_SUBMISSION_TLS_CERT?: string; SMTP_SUBMISSION_TLS_KEY?: string },
  dataDir: string,
): Promise<TlsPair> {
  const { SMTP_SUBMISSION_TLS_CERT: cert, SMTP_SUBMISSION_TLS_KEY: key } = config;
  if (cert || key) {
    if (!cert || !key) throw new Error('SMTP_SUBMISSION_TLS_CERT and SMTP_SUBMISSION_TLS_KEY are set together');
    return { cert: await pem(cert), key: await pem(key), source: 'configured' };
  }
  const certFile = path.join(dataDir, CERT_FILE);
  const keyFile = path.join(dataDir, KEY_FILE);
  const existing = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')]).catch(() => null);
  if (existing) return { cert: existing[0], key: existing[1], source: certFile };
  const generated = await selfSigned();
  await writeFile(keyFile, generated.key, { mode: 0o600 });
  await writeFile(certFile, generated.cert, { mode: 0o644 });
  return { ...generated, source: certFile };
}

/** A self-signed certificate for localhost and the loopback addresses, valid for a year (EC P-256). */
export async function selfSigned(): Promise<{ cert: string; key: string }> {
  const notAfterDate = new Date(Date.now() + 365 * 24 * 3600 * 1000);
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/** A value that holds a PEM block is the PEM; anything else names a file. */
async function pem(value: string): Promise<string> {
  return value.includes('-----BEGIN') ? value.replace(/\\n/g, '\n') : readFile(value, 'utf8');
}
