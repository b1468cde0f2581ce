import { isIP } from 'node:net';
import tls from 'node:tls';
import type { TLSConfig } from '@temporalio/client';

export interface TlsDiagnosis {
  /** The variable to look at; absent: those that turned TLS on. */
  variable?: string;
  problem: string;
}

/**
 * The HTTP/2 connection preface and an empty SETTINGS frame: a server that accepted the handshake answers with its
 * SETTINGS, one that refused the client certificate with an alert (TLS 1.3 sends it only after the handshake).
 */
const H2_PREFACE = Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0])]);

const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
]);

function hostAndPort(address: string): { host: string; port: number } {
  const at = address.lastIndexOf(':');
  return { host: address.slice(0, at).replace(/^\[(.*)\]$/, '$1'), port: Number(address.slice(at + 1)) };
}

/**
 * Why TLS to `address` fails, from one handshake with the same settings: gRPC only reports that it could not connect
 * before its deadline. Null when the handshake succeeds or the server cannot be reached at all (not a TLS problem).
 */
export function diagnoseTls(address: string, config: TLSConfig | boolean | undefined, timeoutMs = 5_000): Promise<TlsDiagnosis | null> {
  const settings = typeof config === 'object' ? config : {};
  const { host, port } = hostAndPort(address);
  const servername = settings.serverNameOverride ?? (isIP(host) ? undefined : host);
  const hasClientCert = Boolean(settings.clientCertPair);
  return new Promise((resolve) => {
    let handshakeDone = false;
    let settled = false;
    const socket = tls.connect({
      host,
      port,
      servername,
      ca: settings.serverRootCACertificate ? Buffer.from(settings.serverRootCACertificate) : undefined,
      cert: settings.clientCertPair ? Buffer.from(settings.clientCertPair.crt) : undefined,
      key: settings.clientCertPair ? Buffer.from(settings.clientCertPair.key) : undefined,
      ALPNProtocols: ['h2'],
    });
    const finish = (diagnosis: TlsDiagnosis | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(diagnosis);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    socket.once('secureConnect', () => {
      handshakeDone = true;
      socket.write(H2_PREFACE);
    });
    socket.once('data', () => finish(null));
    socket.once('close', () => {
      if (handshakeDone) finish(clientCertProblem(hasClientCert, 'the server closed the connection after the handshake'));
    });
    socket.once('error', (err: NodeJS.ErrnoException) => finish(diagnosisOf(err, handshakeDone, hasClientCert)));
  });
}

function clientCertProblem(hasClientCert: boolean, what: string): TlsDiagnosis {
  return hasClientCert
    ? { variable: 'TEMPORAL_TLS_CLIENT_CERT_PATH', problem: `${what}: the server does not accept this client certificate` }
    : {
        variable: 'TEMPORAL_TLS_CLIENT_CERT_PATH',
        problem: `${what}: the server requires a client certificate (TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH)`,
      };
}

function diagnosisOf(err: NodeJS.ErrnoException, handshakeDone: boolean, hasClientCert: boolean): TlsDiagnosis | null {
  const code = err.code ?? '';
  if (UNTRUSTED.has(code))
    return {
      variable: 'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
      problem: `the server's certificate is not trusted (${err.message}); give the CA that issued it`,
    };
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return { variable: 'TEMPORAL_TLS_SERVER_NAME', problem: `the server's certificate is for another name (${err.message})` };
  if (/ALERT_(CERTIFICATE_REQUIRED|HANDSHAKE_FAILURE|BAD_CERTIFICATE|UNKNOWN_CA|CERTIFICATE_UNKNOWN|ACCESS_DENIED)$/.test(code))
    return clientCertProblem(hasClientCert, `the server refused the handshake (alert: ${alertName(code)})`);
  if (!handshakeDone && (code === 'ECONNRESET' || code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG'))
    return { problem: 'the server does not speak TLS on this port (it broke off the handshake); TEMPORAL_TLS=false connects without TLS' };
  if (handshakeDone) return clientCertProblem(hasClientCert, `the connection failed after the handshake (${err.message})`);
  return null;
}

/** `ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED` → `certificate required` (OpenSSL's message spans lines and source paths). */
function alertName(code: string): string {
  return code
    .replace(/^.*ALERT_/, '')
    .toLowerCase()
    .replaceAll('_', ' ');
}
