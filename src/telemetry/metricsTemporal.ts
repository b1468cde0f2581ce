import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Runtime, type RuntimeOptions } from '@temporalio/worker';
import { request } from 'undici';

/** A scrape of the Temporal SDK's own exporter waits at most this long; `/metrics` answers without it otherwise. */
export const TEMPORAL_SCRAPE_TIMEOUT_MS = 1_000;

let scrapeUrl: string | undefined;

/**
 * Installs Temporal's native runtime (once per process) with its Prometheus exporter on a free loopback port: the
 * worker's and its native connection's series (`temporal_…`, durations in seconds) are read from there and appended
 * to this process's `/metrics`. The port is never published; Prometheus scrapes our `/metrics` instead.
 */
export async function installRuntimeWithMetrics(options: Omit<RuntimeOptions, 'telemetryOptions'>): Promise<void> {
  const port = await freeLoopbackPort();
  Runtime.install({
    ...options,
    telemetryOptions: {
      metrics: { prometheus: { bindAddress: `127.0.0.1:${port}`, useSecondsForDurations: true } },
      // The native core's lines (a server that stopped answering, retried calls) go to the runtime's logger, not to
      // the console: ours in production, one that keeps only errors in tests.
      logging: { filter: { core: 'WARN', other: 'WARN' }, forward: {} },
    },
  });
  scrapeUrl = `http://127.0.0.1:${port}/metrics`;
}

/** The Temporal SDK's series in Prometheus text, `null` when this process runs no Temporal runtime. */
export async function scrapeTemporalMetrics(timeoutMs = TEMPORAL_SCRAPE_TIMEOUT_MS): Promise<{ ok: boolean; text: string } | null> {
  if (!scrapeUrl) return null;
  try {
    const res = await request(scrapeUrl, { headersTimeout: timeoutMs, bodyTimeout: timeoutMs, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.body.text();
    return res.statusCode === 200 ? { ok: true, text } : { ok: false, text: '' };
  } catch {
    return { ok: false, text: '' };
  }
}

// The native exporter takes an address, not port 0; a port the OS just handed out is free in practice.
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
