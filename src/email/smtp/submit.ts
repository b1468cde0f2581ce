import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { requestHash, validIdempotencyKey, withIdempotency, type ReleaseRule } from '../../http/idempotency';
import type { RouteResult } from '../../http/route';
import { assertKeyActive, type EmailKeyAuth } from '../keys/authenticate';
import { sendEmail, type SentEmail } from '../send/service';
import { parseSubmission } from './parse';
import { smtpError } from './replies';

/** The idempotency route of SMTP submissions: the same store as REST, its own key space. */
export const SMTP_IDEMPOTENCY_ROUTE = 'SMTP DATA';

/**
 * A 4xx reply tells the client to retry, so a limit or a relay hiccup must free the key (REST stores a 429 for replay;
 * an MTA would then retry against the stored refusal for 24 hours). Everything else is stored as REST stores it.
 */
const releasesRetryable: ReleaseRule = (status) => status >= 500 || status === 429;

export interface Submitted {
  id: string;
  messageId: string;
  /** What the send path answered: `sent`, `queued` (a delivery job sends it), `simulated` (a test key). */
  status: SentEmail['status'];
  replayed: boolean;
}

/**
 * The end of DATA: the key's revocation first (a key revoked while the client was sending refuses the message), the
 * MIME parse and the REST rules, MAIL FROM against the From domain, then `sendEmail` — the REST send path, which
 * checks the revocation again at its commit point — behind the message's `Idempotency-Key:` header when it has one.
 */
export async function submitMessage(
  deps: AppDeps,
  auth: EmailKeyAuth,
  raw: Buffer,
  envelope: { from: string; to: string[] },
): Promise<Submitted> {
  assertKeyActive(auth);
  const submitted = await parseSubmission(raw, envelope);
  const envelopeDomain = envelope.from.slice(envelope.from.lastIndexOf('@') + 1).toLowerCase();
  if (submitted.input.from.domain !== envelopeDomain) {
    throw smtpError(
      'sender_mismatch',
      `MAIL FROM (${envelopeDomain}) and the From header (${submitted.input.from.domain}) must share a domain`,
      403,
    );
  }
  const run = async (): Promise<RouteResult> => {
    const { email } = await sendEmail(deps, auth, submitted.input);
    return { status: 200, body: { id: email.id, messageId: email.messageId, status: email.status } };
  };
  const result = submitted.idempotencyKey
    ? await withIdempotency(
        deps.db,
        deps.secretHashKey,
        {
          accountId: auth.accountId,
          route: SMTP_IDEMPOTENCY_ROUTE,
          key: validIdempotencyKey(submitted.idempotencyKey),
          requestHash: requestHash(submitted.fingerprint),
        },
        run,
        releasesRetryable,
      )
    : await run();
  const body = result.body as { id: string; messageId: string; status: SentEmail['status']; code?: string; message?: string };
  // A replayed refusal is refused again, with the same code.
  if ((result.status ?? 200) >= 400) throw new ApiError(result.status!, body.code ?? 'internal', body.message ?? 'refused');
  return { id: body.id, messageId: body.messageId, status: body.status, replayed: result.headers?.['Idempotent-Replayed'] === 'true' };
}
