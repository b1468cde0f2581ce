import type { AddressInfo, Socket } from 'node:net';
import type { SMTPServer } from 'smtp-server';

export interface ListeningSmtp {
  port: number;
  /** Destroys the open connections (a client holding one would keep `close` waiting), then closes the server. */
  close(): Promise<void>;
}

/**
 * Starts an smtp-server listening (a bind error rejects instead of crashing the process) and tracks its
 * connections, so it can be closed at once. Used by the submission server, the return path and the sandbox relay.
 */
export async function listenSmtp(server: SMTPServer, port: number, host: string): Promise<ListeningSmtp> {
  const sockets = new Set<Socket>();
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  server.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    async close() {
      for (const socket of sockets) socket.destroy();
      if (server.server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
