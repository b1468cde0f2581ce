import type { Client } from './generated/client';
import type { Job } from './generated/types.gen';

export interface FollowOptions {
  /** Polls this often when the event stream cannot be read (default 1 s). */
  pollEveryMs?: number;
  /** Gives up after this long (default 10 minutes). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Follows a job to its end and answers it as `GET` on its URL does: completed with its result, or failed, canceled,
 * timed out or terminated with its error. `job` is the `Location` of a 202 (`/api/jobs/…` for a session,
 * `/api/agent/jobs/…` for an agent key) or a job id (then the session's `/api/jobs/{id}`). It listens to the job's event
 * stream (`…/events`, Server-Sent Events) until the stream ends, and polls the job instead when the stream cannot be
 * read (a proxy that buffers, a dropped connection).
 */
export async function followJob(client: Client, job: string, options: FollowOptions = {}): Promise<Job> {
  const url = job.startsWith('/') ? job : `/api/jobs/${encodeURIComponent(job)}`;
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  const deadline = Date.now() + timeoutMs;
  // A stream that never ends (a proxy holding it) is given up at the deadline, as the polling is.
  const streamSignal = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal] : [])]);
  try {
    await drainEvents(client, `${url}/events`, streamSignal);
  } catch (err) {
    if (options.signal?.aborted) throw err;
  }
  for (;;) {
    const current = await read(client, url, options.signal);
    if (current.status !== 'running') return current;
    if (Date.now() > deadline) throw new Error(`job ${job} is still running after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, options.pollEveryMs ?? 1_000));
  }
}

async function read(client: Client, url: string, signal?: AbortSignal): Promise<Job> {
  const { data, error, response } = await client.get<{ 200: Job }, unknown, false>({
    url,
    security: [{ scheme: 'bearer', type: 'http' }],
    signal,
  });
  if (!data) throw new Error(`GET ${url} answered ${response?.status}: ${JSON.stringify(error)}`);
  return data;
}

/** Reads the event stream to its end (the server ends it after the job's last event). */
async function drainEvents(client: Client, url: string, signal?: AbortSignal): Promise<void> {
  const config = client.getConfig();
  const auth = typeof config.auth === 'function' ? await config.auth({ scheme: 'bearer', type: 'http' }) : config.auth;
  const response = await (config.fetch ?? fetch)(new URL(url.replace(/^\//, ''), `${config.baseUrl?.replace(/\/?$/, '/')}`), {
    headers: { accept: 'text/event-stream', ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
    signal,
  });
  if (!response.ok || !response.body) throw new Error(`event stream answered ${response.status}`);
  for await (const chunk of response.body) void chunk;
}
