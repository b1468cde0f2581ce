import { randomInt } from 'node:crypto';
import { freePort } from '../../../src/dev/ports';

/** The server stores membership ports in a PostgreSQL smallint. */
export const MAX_PORT = 32767;
const LOWEST = 20000;

/**
 * `count` distinct free ports on `host`, all below 32768 (the OS's own picks come from the ephemeral range above it).
 * Free when asked: another process may still take one before the server binds it.
 */
export async function lowFreePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const ports = new Set<number>();
  for (let attempts = 0; ports.size < count; attempts++) {
    if (attempts > 1000) throw new Error(`no ${count} free ports between ${LOWEST} and ${MAX_PORT} on ${host}`);
    const candidate = randomInt(LOWEST, MAX_PORT + 1);
    if (ports.has(candidate)) continue;
    if ((await freePort(candidate, host)) === candidate) ports.add(candidate);
  }
  return [...ports];
}
