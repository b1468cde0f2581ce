import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { assertKeyActive, type EmailKeyAuth } from '../keys/authenticate';
import { admitSends, currentRateLimitHeaders } from '../limits/admit';
import { recordSends } from '../usage/record';
import { formatMailbox } from './addresses';
import { deliverLive, type Delivery } from './deliver';
import { prepareMessage, type PreparedMessage } from './prepare';
import { parseMessage, type FieldError, type MessageInput } from './schema';

export const MAX_BATCH = 100;

export interface SentEmail {
  id: string;
  messageId: string;
  status: 'sent' | 'simulated';
  test: boolean;
  from: string;
  to: string[];
  createdAt: Date;
}

export type BatchEntry =
  | { index: number; email: SentEmail }
  | { index: number; error: { code: string; message: string; errors?: FieldError[] } };

const smtpNotConfigured = () => new ApiError(503, 'smtp_not_configured', 'live sending is not configured on this server (SMTP_URL is unset); nothing was sent or counted');

/**
 * One message: the domain rules and the template, 503 for a live key without a relay, the rate limiter (429s),
 * then — right before the irreversible step — the key's revocation. A test key answers the full response and sends
 * nothing; a live key hands the message to the relay (502 `smtp_rejected` / `smtp_unavailable` when it fails).
 */
export async function sendEmail(deps: AppDeps, auth: EmailKeyAuth, input: MessageInput): Promise<{ email: SentEmail; headers: Record<string, string> }> {
  const message = await prepareMessage(deps, auth, input);
  assertRelayConfigured(deps, auth);
  const { headers } = await admitSends(deps, auth, 1);
  assertKeyActive(auth);
  if (auth.environment === 'test') {
    recordSends(auth, 1);
    return { email: sentEmail(message, 'simulated', true), headers };
  }
  const [delivery] = await deliverLive(deps, auth, [message]);
  if (delivery.outcome !== 'sent') throw delivery.error;
  recordSends(auth, 1);
  return { email: sentEmail(message, 'sent', false), headers };
}

/**
 * Up to 100 messages, a result per message in order. A message that fails its own validation, domain rules or
 * template gets an error result and the others go on; the valid ones are admitted together (or the request is
 * 429). Live: a message the relay refuses gets its error; when the key is revoked before any message committed,
 * the request is 401.
 */
export async function sendBatch(deps: AppDeps, auth: EmailKeyAuth, items: unknown[]): Promise<{ entries: BatchEntry[]; headers: Record<string, string> }> {
  if (items.length > MAX_BATCH) {
    throw new ApiError(400, 'batch_too_large', `a batch holds at most ${MAX_BATCH} messages (got ${items.length}); split it`);
  }
  const checked = await Promise.all(items.map((item, index) => checkItem(deps, auth, item, index)));
  const ready = checked.filter((c): c is { index: number; message: PreparedMessage } => 'message' in c);
  if (ready.length === 0) return { entries: checked as BatchEntry[], headers: currentRateLimitHeaders(deps, auth) };

  assertRelayConfigured(deps, auth);
  const { headers } = await admitSends(deps, auth, ready.length);
  assertKeyActive(auth);
  const results = new Map<number, BatchEntry>();
  if (auth.environment === 'test') {
    for (const { index, message } of ready) results.set(index, { index, email: sentEmail(message, 'simulated', true) });
    recordSends(auth, ready.length);
  } else {
    const deliveries = await deliverLive(deps, auth, ready.map((r) => r.message));
    const sent = deliveries.filter((d) => d.outcome === 'sent').length;
    const withheld = deliveries.find((d): d is Extract<Delivery, { outcome: 'withheld' }> => d.outcome === 'withheld');
    if (sent === 0 && withheld) throw withheld.error;
    recordSends(auth, sent);
    deliveries.forEach((d, i) => {
      const { index } = ready[i];
      results.set(index, d.outcome === 'sent' ? { index, email: sentEmail(d.message, 'sent', false) } : { index, error: errorOf(d.error) });
    });
  }
  return { entries: checked.map((c) => results.get(c.index) ?? (c as BatchEntry)), headers };
}

async function checkItem(deps: AppDeps, auth: EmailKeyAuth, item: unknown, index: number): Promise<BatchEntry | { index: number; message: PreparedMessage }> {
  const parsed = parseMessage(item, `body.${index}`);
  if (!parsed.ok) {
    const message = `invalid message: ${parsed.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`;
    return { index, error: { code: 'validation_failed', message, errors: parsed.errors } };
  }
  try {
    return { index, message: await prepareMessage(deps, auth, parsed.message) };
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return { index, error: errorOf(err) };
    throw err;
  }
}

function errorOf(err: ApiError): { code: string; message: string } {
  return { code: err.code, message: err.message };
}

function assertRelayConfigured(deps: AppDeps, auth: EmailKeyAuth): void {
  if (auth.environment === 'live' && !deps.config.SMTP_URL) throw smtpNotConfigured();
}

function sentEmail(message: PreparedMessage, status: SentEmail['status'], test: boolean): SentEmail {
  return {
    id: message.id,
    messageId: message.messageId,
    status,
    test,
    from: formatMailbox(message.from),
    to: message.to.map(formatMailbox),
    createdAt: message.createdAt,
  };
}
