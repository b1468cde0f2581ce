import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { emitEmailEvents } from '../webhooks/service';
import * as store from './store';
import { readUnsubscribeToken, type UnsubscribeTarget } from './token';

/** A link that is not ours, altered, or of an account that is gone: the answer never says which. */
export const linkNotFound = () => new ApiError(404, 'unsubscribe_link_not_found', 'no such unsubscribe link');

/** The target of a link, verified without a database read; 404 for any link we did not make. */
export function verifiedTarget(deps: Pick<AppDeps, 'secretHashKey'>, token: string): UnsubscribeTarget {
  const target = readUnsubscribeToken(deps.secretHashKey, token);
  if (!target) throw linkNotFound();
  return target;
}

/**
 * The one-click unsubscribe (RFC 8058): the recipient is suppressed for the account (reason `unsubscribe`) and an
 * `email.unsubscribed` event is emitted, in one transaction. Repeating it, or an address already suppressed for
 * another reason, changes nothing.
 */
export async function unsubscribe(deps: AppDeps, token: string): Promise<{ suppressed: boolean }> {
  const target = verifiedTarget(deps, token);
  return deps.db.transaction(async (trx) => {
    const outcome = await store.suppressUnsubscribed(trx, target);
    if (outcome === 'no_account') throw linkNotFound();
    if (outcome === 'already') return { suppressed: false };
    const email = await store.unsubscribedEmail(trx, target);
    const data = {
      email_id: target.emailId,
      message_id: email?.smtp_message_id ?? null,
      recipient: target.recipient,
      from: email?.from_address ?? null,
      subject: email?.subject ?? null,
      tags: email?.tags ?? [],
      suppressed: true,
      unsubscribed_at: new Date().toISOString(),
    };
    await emitEmailEvents(deps, target.accountId, [{ type: 'email.unsubscribed', data }], trx);
    return { suppressed: true };
  });
}
