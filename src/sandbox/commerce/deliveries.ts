/**
 * The delivery driver: signs the exact bytes it sends (base64 HMAC-SHA256 keyed by the app's client secret),
 * posts them with the X-Commerce-* headers and retries non-2xx answers and timeouts on a compressed schedule
 * (the platform retries up to 19 times over 48 hours). Every attempt of one delivery carries the same webhook id.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { API_VERSION, shopOrThrow, type SimState } from './state';

export const MAX_RETRIES = 19;
/** Default: 19 retries, 20 ms apart — the real 48-hour schedule compressed for tests. */
export const DEFAULT_RETRY_SCHEDULE: number[] = Array.from({ length: MAX_RETRIES }, () => 20);
export const DEFAULT_DELIVERY_TIMEOUT_MS = 5_000;

export interface DeliveryOptions {
  /** Reuse an id to replay a delivery; default a new id per deliver() call. */
  webhookId?: string;
  /** Sign with this secret instead of the app's (simulates a wrong secret). */
  clientSecret?: string;
  /** Where to post when the shop has no subscription for the topic (e.g. privacy topics set in app settings). */
  address?: string;
  /** Milliseconds to wait before each retry (at most 19 are used); default the simulator's schedule. */
  retrySchedule?: number[];
  /** Per-attempt timeout; an attempt that times out is retried. */
  timeoutMs?: number;
}

export interface DeliveryAttempt {
  /** The HTTP status, or 0 when the attempt timed out or could not connect. */
  status: number;
  ms: number;
  error?: string;
}

export interface DeliveryResult {
  webhookId: string;
  topic: string;
  address: string;
  attempts: DeliveryAttempt[];
  delivered: boolean;
}

export interface Deliverer {
  deliver(domain: string, topic: string, payload: unknown, options?: DeliveryOptions): Promise<DeliveryResult>;
  log(): DeliveryResult[];
  /** Cancels every pending attempt and retry wait; pending deliveries resolve with delivered false. */
  stop(): void;
}

/** A string or Buffer payload is sent verbatim (to test exact-byte signing); anything else as JSON. */
export function payloadBytes(payload: unknown): Buffer {
  if (Buffer.isBuffer(payload)) return payload;
  return Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload), 'utf8');
}

export function signBody(body: Buffer, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('base64');
}

export function createDeliverer(state: SimState, defaults: { retrySchedule: number[]; timeoutMs: number }): Deliverer {
  const stopping = new AbortController();
  const results: DeliveryResult[] = [];

  function target(domain: string, topic: string, options: DeliveryOptions): { address: string; secret: string } {
    const shop = shopOrThrow(state, domain);
    const subscription = shop.webhooks.filter((w) => w.topic === topic).at(-1);
    const address = subscription?.address ?? options.address;
    if (!address) throw new Error(`commerce simulator: ${domain} has no ${topic} subscription and no options.address was given`);
    const clientId = subscription?.clientId ?? state.installedBy.get(domain) ?? onlyApp(state);
    const secret = options.clientSecret ?? (clientId ? state.apps.get(clientId)?.clientSecret : undefined);
    if (!secret) throw new Error(`commerce simulator: no app secret to sign ${topic} for ${domain}; pass options.clientSecret`);
    return { address, secret };
  }

  async function deliver(domain: string, topic: string, payload: unknown, options: DeliveryOptions = {}): Promise<DeliveryResult> {
    const { address, secret } = target(domain, topic, options);
    const body = payloadBytes(payload);
    const webhookId = options.webhookId ?? randomUUID();
    const headers = {
      'content-type': 'application/json',
      'content-length': String(body.length),
      'user-agent': 'Commerce-Webhook-Simulator/1.0',
      'x-commerce-topic': topic,
      'x-commerce-hmac-sha256': signBody(body, secret),
      'x-commerce-shop-domain': domain,
      'x-commerce-webhook-id': webhookId,
      'x-commerce-api-version': API_VERSION,
      'x-commerce-triggered-at': new Date().toISOString(),
      'x-commerce-event-id': webhookId,
    };
    const schedule = (options.retrySchedule ?? defaults.retrySchedule).slice(0, MAX_RETRIES);
    const result: DeliveryResult = { webhookId, topic, address, attempts: [], delivered: false };
    results.push(result);
    for (let attempt = 0; attempt <= schedule.length && !stopping.signal.aborted; attempt++) {
      if (attempt > 0 && !(await pause(schedule[attempt - 1], stopping.signal))) break;
      const outcome = await post(address, headers, body, options.timeoutMs ?? defaults.timeoutMs, stopping.signal);
      result.attempts.push(outcome);
      if (outcome.status >= 200 && outcome.status < 300) {
        result.delivered = true;
        break;
      }
    }
    return structuredClone(result);
  }

  return {
    deliver,
    log: () => structuredClone(results),
    stop: () => stopping.abort(),
  };
}

function onlyApp(state: SimState): string | undefined {
  return state.apps.size === 1 ? [...state.apps.keys()][0] : undefined;
}

/** Waits `ms`; false when the simulator stopped meanwhile. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function post(
  address: string,
  headers: Record<string, string>,
  body: Buffer,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<DeliveryAttempt> {
  const started = Date.now();
  const send = address.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (status: number, error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(error ? { status, ms: Date.now() - started, error } : { status, ms: Date.now() - started });
    };
    const req = send(address, { method: 'POST', headers, agent: false, signal }, (res) => {
      res.resume();
      res.on('end', () => finish(res.statusCode ?? 0));
      res.on('error', () => finish(res.statusCode ?? 0));
    });
    const timer = setTimeout(() => {
      finish(0, 'timeout');
      req.destroy();
    }, timeoutMs);
    req.on('error', (err) => finish(0, signal.aborted ? 'stopped' : err.message));
    req.end(body);
  });
}
