import assert from 'node:assert/strict';
import { call, type CallResult } from '../helpers/http';

/** Polls `probe` until `done` holds (visibility and job state are eventually consistent), failing after `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export type TestJobKind = 'stepped' | 'failing' | 'quick';

export interface StartOptions {
  key?: string;
  content_id?: string;
  wait_seconds?: number;
  headers?: Record<string, string>;
}

/** Starts a test workflow through the test route (real HTTP, session auth). */
export function startTestJob(
  token: string,
  kind: TestJobKind,
  input: Record<string, unknown>,
  options: StartOptions = {},
): Promise<CallResult> {
  const { headers, ...rest } = options;
  return call('POST', `/test/jobs/${kind}`, { token, headers, body: { input, ...rest } });
}

export function jobUrl(id: string, base = '/api/jobs'): string {
  return `${base}/${encodeURIComponent(id)}`;
}

export function getJob(token: string, id: string, base = '/api/jobs'): Promise<CallResult> {
  return call('GET', jobUrl(id, base), { token });
}

/** Waits until the job is no longer running and answers its last read. */
export async function settled(token: string, id: string, timeoutMs = 10_000): Promise<CallResult> {
  return eventually(
    () => getJob(token, id),
    (res) => res.status === 200 && res.body.status !== 'running',
    timeoutMs,
    `job ${id} to close`,
  );
}
