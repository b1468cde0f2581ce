import { readFile } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import tls from 'node:tls';
import type { TestCa } from './testCa';

export interface TlsProxy {
  /** `127.0.0.1:port`, TLS with the CA's server certificate. */
  address: string;
  /** Common names of the client certificates of the connections it let through, in order. */
  clients: string[];
  /** Handshakes it refused (no client certificate, an unknown CA, a client that does not trust it). */
  refused: number;
  stop(): Promise<void>;
}

/**
 * TLS in front of a plain gRPC server (the dev server has no TLS flags), the way an ingress terminates it: the server
 * certificate of `ca`, client certificates required and verified against it, HTTP/2 negotiated with ALPN, and the
 * decrypted bytes piped to `target`.
 */
export async function startTlsProxy(ca: TestCa, target: string): Promise<TlsProxy> {
  const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
  const [cert, key, caCert] = await Promise.all([readFile(ca.serverCert), readFile(ca.serverKey), readFile(ca.caCert)]);
  const sockets = new Set<net.Socket>();
  const proxy: Omit<TlsProxy, 'address' | 'stop'> = { clients: [], refused: 0 };
  const server = tls.createServer(
    { cert, key, ca: caCert, requestCert: true, rejectUnauthorized: true, ALPNProtocols: ['h2'] },
    (socket) => {
      proxy.clients.push(String(socket.getPeerCertificate().subject?.CN ?? ''));
      const upstream = net.connect(port, host);
      sockets.add(socket).add(upstream);
      const close = () => {
        socket.destroy();
        upstream.destroy();
        sockets.delete(socket);
        sockets.delete(upstream);
      };
      socket.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
      socket.pipe(upstream).pipe(socket);
    },
  );
  server.on('tlsClientError', () => {
    proxy.refused++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(proxy, {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  });
}
