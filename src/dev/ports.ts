import net from 'node:net';

function tryListen(port: number, host: string): Promise<number | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(null));
    server.listen(port, host, () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : null));
    });
  });
}

/** The preferred port when it is free, else any free port the OS hands out. */
export async function freePort(preferred: number, host = '127.0.0.1'): Promise<number> {
  return (await tryListen(preferred, host)) ?? (await tryListen(0, host)) ?? Promise.reject(new Error('no free port'));
}
