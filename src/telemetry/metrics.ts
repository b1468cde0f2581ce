import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { JOB_CLOSE_OUTCOMES } from '../../workflows/jobCloseOutcome';

/**
 * The domain metrics of this process. They are counted deep inside platform clients, limiters, receivers and the
 * worker's sinks, which are built from config in many places; one process-wide registry (never prom-client's global
 * default) lets each of them count without threading a registry through every constructor. Every `/metrics` of the
 * process (the API's, the worker's METRICS_PORT) merges it in (src/http/metrics.ts).
 */
export const domainRegistry = new Registry();

/** The worker process's registry (it has no app): process metrics and the domain metrics. */
export function workerRegistry(): Registry {
  const own = new Registry();
  collectDefaultMetrics({ register: own });
  return Registry.merge([own, domainRegistry]);
}

/** The outcomes a job close is counted with (`jobsClosed`, `jobDuration`, `scheduleRuns`). */
export const JOB_OUTCOMES = JOB_CLOSE_OUTCOMES;

export const domainMetrics = {
  jobsClosed: new Counter({
    name: 'workyard_jobs_closed_total',
    help: 'Jobs (workflow executions) that closed, by kind and outcome, counted by the worker that ran their last task',
    labelNames: ['kind', 'outcome'] as const,
    registers: [domainRegistry],
  }),
  jobDuration: new Histogram({
    name: 'workyard_job_duration_seconds',
    help: 'Job duration from the start of its first run to its close, by kind and outcome',
    labelNames: ['kind', 'outcome'] as const,
    buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 4 * 3600, 24 * 3600],
    registers: [domainRegistry],
  }),
  scheduleRuns: new Counter({
    name: 'workyard_schedule_runs_total',
    help: 'Runs of the cron schedules (scheduled and run-now), by schedule name and outcome',
    labelNames: ['schedule', 'outcome'] as const,
    registers: [domainRegistry],
  }),
  webhookDeliveries: new Counter({
    name: 'workyard_webhook_deliveries_total',
    help: 'Inbound platform webhook deliveries, by platform, topic (`unverified` before the sender is verified) and outcome',
    labelNames: ['platform', 'topic', 'outcome'] as const,
    registers: [domainRegistry],
  }),
  platformCalls: new Counter({
    name: 'workyard_platform_calls_total',
    help: 'HTTP calls to the commerce and site platforms, by platform, operation (method and path template) and status',
    labelNames: ['platform', 'operation', 'status'] as const,
    registers: [domainRegistry],
  }),
  rateLimitRefusals: new Counter({
    name: 'workyard_rate_limit_refusals_total',
    help: 'Work refused by a local rate limiter before it reached the platform or relay, by limiter',
    labelNames: ['limiter'] as const,
    registers: [domainRegistry],
  }),
  temporalClientRequests: new Counter({
    name: 'workyard_temporal_client_requests_total',
    help: "Calls of this process's Temporal client (the API's; the worker's native connection reports temporal_request), by gRPC operation and status",
    labelNames: ['operation', 'status'] as const,
    registers: [domainRegistry],
  }),
  temporalClientDuration: new Histogram({
    name: 'workyard_temporal_client_request_duration_seconds',
    help: "Duration of this process's Temporal client calls (long polls such as waiting for a result included), by gRPC operation",
    labelNames: ['operation'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [domainRegistry],
  }),
  emailSends: new Counter({
    name: 'workyard_email_sends_total',
    help: 'Emails handed to the relay (sent, failed, withheld) or simulated for test keys, by outcome',
    labelNames: ['outcome'] as const,
    registers: [domainRegistry],
  }),
};

/** Most distinct values one free-form label (topic, operation) takes in a process; later new ones count as `other`. */
export const LABEL_VALUES_MAX = 200;

const seenValues = new Map<string, Set<string>>();

/** Keeps a label's cardinality bounded whatever the platforms send. */
export function boundedLabel(label: string, value: string): string {
  let seen = seenValues.get(label);
  if (!seen) seenValues.set(label, (seen = new Set()));
  if (seen.has(value)) return value;
  if (seen.size >= LABEL_VALUES_MAX) return 'other';
  seen.add(value);
  return value;
}

export const PLATFORMS = ['commerce', 'site_platform'] as const;
export type Platform = (typeof PLATFORMS)[number];

export function countPlatformCall(platform: Platform, operation: string, status: number | 'timeout' | 'network'): void {
  domainMetrics.platformCalls.inc({ platform, operation: boundedLabel(`${platform}:operation`, operation), status: String(status) });
}

export const LIMITERS = ['site_platform_bucket', 'email_per_second', 'email_batch_hold', 'email_daily_cap'] as const;
export type Limiter = (typeof LIMITERS)[number];

export function countRateLimitRefusal(limiter: Limiter): void {
  domainMetrics.rateLimitRefusals.inc({ limiter });
}

export const EMAIL_SEND_OUTCOMES = ['sent', 'deferred', 'failed', 'simulated'] as const;

export function countEmailSends(outcome: (typeof EMAIL_SEND_OUTCOMES)[number], count = 1): void {
  if (count > 0) domainMetrics.emailSends.inc({ outcome }, count);
}

/** What a receiver learned about a delivery before it answered: the topic, once the sender is verified. */
export interface DeliveryNote {
  topic: string;
}

/**
 * Runs one inbound delivery and counts it: the outcome of an answer comes from `outcomeOf`, of a refusal from its
 * error code (a fixed set), anything else is `error`.
 */
export async function countedDelivery<T>(
  platform: Platform,
  receive: (note: DeliveryNote) => Promise<T>,
  outcomeOf: (receipt: T) => string,
): Promise<T> {
  const note: DeliveryNote = { topic: 'unverified' };
  const count = (outcome: string) =>
    domainMetrics.webhookDeliveries.inc({ platform, topic: boundedLabel(`${platform}:topic`, note.topic), outcome });
  try {
    const receipt = await receive(note);
    count(outcomeOf(receipt));
    return receipt;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    count(typeof code === 'string' && /^[a-z_]{1,64}$/.test(code) ? code : 'error');
    throw err;
  }
}

/**
 * Path segments that name a resource stay, the rest (ids, slugs) become `{id}`, so an operation label is a path
 * template: `GET /v2/sites/{id}/collections`.
 */
export function operationOf(method: string, path: string): string {
  const template = path
    .split('/')
    .map((segment) => (segment === '' || /^(?:v\d+|[a-z]+(?:_[a-z]+)*)$/.test(segment) ? segment : '{id}'))
    .join('/');
  return `${method} ${template}`;
}
