/**
 * Webhook deliveries as the platform sends them: for each registration matching an event (trigger type, and for
 * form_submission the optional `filter.name`), a POST of `{"triggerType": …, "payload": …}` to the registered URL,
 * after the mutating request was answered. OAuth registrations are signed: `x-webflow-timestamp` (ms since epoch)
 * and `x-webflow-signature` = hex HMAC-SHA256 of `<timestamp>:<rawBody>` keyed by the registering app's client
 * secret; site-token and dashboard registrations are unsigned. A non-2xx answer, a network failure or a timeout is
 * retried 3 times, `retryIntervalMs` apart (the platform: ten minutes), each retry with the same body and a fresh
 * timestamp and signature; a deleted registration gets no further retry. Only `http://127.0.0.1` (or `localhost`,
 * dialled as 127.0.0.1) is ever contacted: any other URL is logged as `not_loopback` and not retried.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { siteData, type SimWebhook } from './siteData';
import { iso, type PendingEvent, type SimState } from './state';

export const WEBHOOK_RETRIES = 3;
export const DEFAULT_WEBHOOK_RETRY_INTERVAL_MS = 10 * 60_000;
/** The platform does not publish its delivery timeout; the simulator gives up on an attempt after this long. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
const RESPONSE_KEEP_BYTES = 4096;

/** One attempt to deliver one event to one registration (or a redelivery of a past attempt). */
export interface WebhookDelivery {
  /** Position in webhookDeliveries(); what redeliver() takes. */
  index: number;
  /** Shared by every attempt (and redelivery) of one event to one registration. */
  deliveryId: string;
  webhookId: string;
  siteId: string;
  triggerType: string;
  url: string;
  /** 1 for the first send, 2–4 for the retries; a redelivery is attempt 1 with `redeliveryOf` set. */
  attempt: number;
  /** Wall-clock ms when the attempt was sent. */
  sentAt: number;
  /** The receiver's HTTP status; absent when the attempt got no answer (see `error`). */
  status?: number;
  /** 'timeout', 'not_loopback', 'stopped' or the socket error's message. */
  error?: string;
  /** The raw request body exactly as sent (UTF-8). */
  body: string;
  /** The request headers as sent (the Host header aside). */
  headers: Record<string, string>;
  signed: boolean;
  /** The fault applied to this attempt, if one was injected. */
  fault?: WebhookFaultKind;
  /** The first 4 KiB of the receiver's answer body. */
  response?: string;
  redeliveryOf?: number;
}

/**
 * Deliveries that fail verification on purpose: `bad_signature` signs with a wrong secret; `stale_timestamp` signs
 * correctly over a timestamp `skewMs` off the clock (default 10 minutes in the past); `unsigned` leaves out both
 * headers even for an OAuth registration.
 */
export type WebhookFaultKind = 'bad_signature' | 'stale_timestamp' | 'unsigned';

export interface WebhookFaultSpec {
  kind: WebhookFaultKind;
  /** How many attempts take the fault; default 1. */
  times?: number;
  /** Only attempts of this trigger; default any. */
  triggerType?: string;
  /** For 'stale_timestamp': added to the clock; default -600_000. */
  skewMs?: number;
}

export interface DelivererOptions {
  retryIntervalMs: number;
  timeoutMs: number;
}

export interface RedeliverOptions {
  /** Re-sign with a fresh timestamp (a platform resend); default false: the past attempt's headers verbatim (a replay). */
  resign?: boolean;
}

interface Outgoing {
  deliveryId: string;
  hook: SimWebhook;
  siteId: string;
  triggerType: string;
  body: string;
}

export class WebhookDeliverer {
  private readonly log: WebhookDelivery[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly faults: Array<{ spec: WebhookFaultSpec; remaining: number }> = [];
  private readonly stopping = new AbortController();

  constructor(
    private readonly state: SimState,
    private readonly options: DelivererOptions,
  ) {}

  /** Sends the events once `answered` settles (the mutating request's answer is written). */
  releaseWhen(events: PendingEvent[], answered: Promise<void>): void {
    if (events.length === 0 || this.stopping.signal.aborted) return;
    this.track(answered.then(() => this.release(events)));
  }

  /** Starts one delivery per matching registration for each event; never waits for them. */
  release(events: PendingEvent[]): void {
    if (this.stopping.signal.aborted) return;
    for (const event of events) {
      const hooks = siteData(this.state, event.siteId).webhooks.filter(
        (h) => h.triggerType === event.triggerType && (h.filter?.name === undefined || h.filter.name === event.formName),
      );
      const body = JSON.stringify({ triggerType: event.triggerType, payload: event.payload });
      for (const hook of hooks) {
        hook.lastTriggered = iso(this.state.now());
        const outgoing = { deliveryId: randomUUID(), hook, siteId: event.siteId, triggerType: event.triggerType, body };
        this.track(this.deliver(outgoing));
      }
    }
  }

  deliveries(): WebhookDelivery[] {
    return structuredClone(this.log);
  }

  /** Resolves once nothing is in flight: no answer awaited, no attempt open, no retry waiting. */
  async flush(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  injectFault(spec: WebhookFaultSpec): void {
    const times = spec.times ?? 1;
    if (!(times > 0)) throw new Error('site platform simulator: webhook fault times must be positive');
    this.faults.push({ spec, remaining: times });
  }

  clearFaults(): void {
    this.faults.length = 0;
  }

  /** Sends the body of a past attempt once more to the same URL (no retries); resolves with the new log entry. */
  redeliver(index: number, options: RedeliverOptions = {}): Promise<WebhookDelivery> {
    const past = this.log[index];
    if (!past) return Promise.reject(new Error(`site platform simulator: no webhook delivery ${index}`));
    let headers = { ...past.headers };
    if (options.resign && past.signed) {
      const hook = this.hookOf(past.siteId, past.webhookId);
      const secret = hook ? this.secretOf(hook) : undefined;
      if (secret) headers = { ...headers, ...signatureHeaders(secret, Date.now(), past.body) };
    }
    const sending = this.attempt({
      deliveryId: past.deliveryId,
      webhookId: past.webhookId,
      siteId: past.siteId,
      triggerType: past.triggerType,
      url: past.url,
      attempt: 1,
      body: past.body,
      headers,
      signed: past.signed,
      redeliveryOf: index,
    });
    this.track(sending);
    return sending.then((entry) => structuredClone(entry));
  }

  /** Cancels waiting retries and open attempts; nothing is sent afterwards. */
  stop(): void {
    this.stopping.abort();
  }

  private track(promise: Promise<unknown>): void {
    const tracked = promise.catch(() => undefined).finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  private hookOf(siteId: string, webhookId: string): SimWebhook | undefined {
    return siteData(this.state, siteId).webhooks.find((h) => h.id === webhookId);
  }

  private secretOf(hook: SimWebhook): string | undefined {
    return hook.registeredBy.kind === 'oauth' ? this.state.apps.get(hook.registeredBy.clientId)?.clientSecret : undefined;
  }

  private takeFault(triggerType: string): WebhookFaultSpec | undefined {
    const entry = this.faults.find((f) => f.spec.triggerType === undefined || f.spec.triggerType === triggerType);
    if (!entry) return undefined;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.faults.splice(this.faults.indexOf(entry), 1);
    return entry.spec;
  }

  private async deliver(out: Outgoing): Promise<void> {
    for (let attempt = 1; attempt <= 1 + WEBHOOK_RETRIES; attempt++) {
      if (attempt > 1) {
        if (!(await pause(this.options.retryIntervalMs, this.stopping.signal))) return;
        if (!this.hookOf(out.siteId, out.hook.id)) return;
      }
      const secret = this.secretOf(out.hook);
      const fault = this.takeFault(out.triggerType);
      const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'site-platform-simulator-webhooks/1.0' };
      if (secret && fault?.kind !== 'unsigned') {
        const key = fault?.kind === 'bad_signature' ? `${secret}-wrong` : secret;
        const at = Date.now() + (fault?.kind === 'stale_timestamp' ? (fault.skewMs ?? -10 * 60_000) : 0);
        Object.assign(headers, signatureHeaders(key, at, out.body));
      }
      const entry = await this.attempt({
        deliveryId: out.deliveryId,
        webhookId: out.hook.id,
        siteId: out.siteId,
        triggerType: out.triggerType,
        url: out.hook.url,
        attempt,
        body: out.body,
        headers,
        signed: 'x-webflow-signature' in headers,
        ...(fault ? { fault: fault.kind } : {}),
      });
      if (entry.status !== undefined && entry.status >= 200 && entry.status < 300) return;
      if (entry.error === 'not_loopback' || entry.error === 'stopped') return;
    }
  }

  private async attempt(draft: Omit<WebhookDelivery, 'index' | 'sentAt'>): Promise<WebhookDelivery> {
    const sentAt = Date.now();
    const outcome = this.stopping.signal.aborted
      ? { error: 'stopped' }
      : await post(draft.url, draft.headers, draft.body, this.options.timeoutMs, this.stopping.signal);
    const entry: WebhookDelivery = { index: this.log.length, ...draft, sentAt, ...outcome };
    this.log.push(entry);
    return entry;
  }
}

export function signatureHeaders(secret: string, timestampMs: number, body: string): Record<string, string> {
  const timestamp = String(timestampMs);
  const signature = createHmac('sha256', secret).update(`${timestamp}:${body}`, 'utf8').digest('hex');
  return { 'x-webflow-timestamp': timestamp, 'x-webflow-signature': signature };
}

/** Waits `ms` (without holding the process open); false when the simulator stopped meanwhile. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    timer.unref();
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

type Outcome = { status: number; response: string } | { error: string };

function post(url: string, headers: Record<string, string>, body: string, timeoutMs: number, signal: AbortSignal): Promise<Outcome> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve({ error: 'not_loopback' });
  }
  if (target.protocol !== 'http:' || !['127.0.0.1', 'localhost'].includes(target.hostname))
    return Promise.resolve({ error: 'not_loopback' });
  const bytes = Buffer.from(body, 'utf8');
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = request(
      {
        host: '127.0.0.1',
        port: target.port || 80,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        headers: { ...headers, host: target.host, 'content-length': String(bytes.length) },
        agent: false,
        signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (chunk: Buffer) => {
          if (kept < RESPONSE_KEEP_BYTES) chunks.push(chunk.subarray(0, RESPONSE_KEEP_BYTES - kept));
          kept += chunk.length;
        });
        const done = () => finish({ status: res.statusCode ?? 0, response: Buffer.concat(chunks).toString('utf8') });
        res.on('end', done);
        res.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      finish({ error: 'timeout' });
      req.destroy();
    }, timeoutMs);
    req.on('error', (err) => finish({ error: signal.aborted ? 'stopped' : err.message }));
    req.end(bytes);
  });
}
