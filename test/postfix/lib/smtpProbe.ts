import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** Whether an SMTP server on host:port answers with its 220 greeting (then it is told QUIT). */
export function smtpGreets(host: string, port: number, timeoutMs = 3_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let buffered = '';
    const done = (greeted: boolean) => {
      clearTimeout(timer);
      if (greeted) socket.end('QUIT\r\n');
      else socket.destroy();
      resolve(greeted);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      if (buffered.includes('\n')) done(buffered.startsWith('220'));
    });
    socket.on('error', () => done(false));
  });
}

/** Whether a connection to host:port is refused outright (nothing listens). */
export function refusesConnections(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(3_000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

/** Polls `check` until it holds; false after `timeoutMs`. */
export async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
}
