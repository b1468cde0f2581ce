import { parsePrefer } from './prefer';

/** How long a job-starting request waits for its job's result, and which of the client's preferences decided it. */
export interface JobWait {
  /** Seconds to wait for the result before answering 202. */
  seconds: number;
  /** Answer 202 right after the start, whatever the job's state (`Prefer: respond-async`, or `wait=0`). */
  atOnce: boolean;
  /** `Prefer: wait=N` was honoured (cut to the route's bound): Preference-Applied names the wait used. */
  waitPreferred: boolean;
  /** `Prefer: respond-async` was sent: Preference-Applied names it when the answer is 202. */
  respondAsync: boolean;
}

/** `wait`'s value is delta-seconds, digits only; anything else is ignored, as RFC 7240 has it. */
const seconds = (value: string | undefined): number | undefined => (value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined);

/**
 * The wait of a request under the route's bound `maxSeconds` (its configured wait, which is also the default):
 * `Prefer: wait=N` waits N seconds at most and never past the bound; `respond-async` alone answers at once, with
 * `wait=N` it waits up to N seconds first (RFC 7240's own example). Invalid or unknown preferences change nothing.
 */
export function jobWait(prefer: string | undefined, maxSeconds: number): JobWait {
  const preferences = parsePrefer(prefer);
  const respondAsync = preferences.has('respond-async') && preferences.get('respond-async') === undefined;
  const asked = seconds(preferences.get('wait'));
  if (asked !== undefined) return { seconds: Math.min(asked, maxSeconds), atOnce: asked === 0, waitPreferred: true, respondAsync };
  return { seconds: respondAsync ? 0 : maxSeconds, atOnce: respondAsync, waitPreferred: false, respondAsync };
}

/** The `Preference-Applied` header (RFC 7240 §3) of an answer: 202 (`accepted`) or the result. None when nothing was honoured. */
export function preferenceApplied(wait: JobWait, accepted: boolean): Record<string, string> {
  const applied: string[] = [];
  if (wait.respondAsync && accepted) applied.push('respond-async');
  if (wait.waitPreferred) applied.push(`wait=${Math.floor(wait.seconds)}`);
  return applied.length > 0 ? { 'Preference-Applied': applied.join(', ') } : {};
}
