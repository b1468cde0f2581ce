import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { isUuid } from '../../http/ids';
import { emitEmailEvents } from '../webhooks/service';
import type { EmailEventType } from '../webhooks/events';
import * as store from './store';
import { readTrackingToken, recipientOfTag, type ReadToken } from './token';

type TrackingServiceDeps = Pick<AppDeps, 'db' | 'secretHashKey' | 'temporal' | 'metrics' | 'logger'>;

/** A click link we did not make (malformed, altered, another server's) or whose email is gone: never says which. */
export const trackedLinkNotFound = () => new ApiError(404, 'tracked_link_not_found', 'no such link');

/** What a hit tells besides its token: the client's User-Agent, so receivers can tell scanners and proxies apart. */
export interface HitContext {
  userAgent: string | undefined;
  /** Count it: false for HEAD, which link checkers send without anyone opening anything. */
  count: boolean;
}

const MAX_USER_AGENT = 512;

/**
 * The pixel was loaded: the recipient's first open emits `email.opened`, later ones only count. A token that is not
 * ours, of an email that is gone, or naming nobody it went to records nothing (the pixel is answered all the same).
 */
export async function recordOpen(deps: TrackingServiceDeps, token: string, context: HitContext): Promise<void> {
  const read = readTrackingToken(deps.secretHashKey, token);
  if (!read || read.kind !== 'open' || !context.count) return;
  await recordHit(deps, read, 'email.opened', context, {});
}

/**
 * A tracked link was followed: the URL it was made for (from the message's stored links, by the index the token's MAC
 * binds), after counting the click (the recipient's first of that link emits `email.clicked`; a count that fails is
 * logged and the redirect answered all the same). 404
 * `tracked_link_not_found` for a token that is not ours or an email that is gone.
 */
export async function followClick(deps: TrackingServiceDeps, token: string, context: HitContext): Promise<string> {
  const read = readTrackingToken(deps.secretHashKey, token);
  if (!read || read.kind !== 'click' || read.link === null) throw trackedLinkNotFound();
  const url = await store.trackedLink(deps.db, read.accountId, read.emailId, read.link);
  if (!url) throw trackedLinkNotFound();
  if (context.count) {
    // The person is sent on whatever happens to the count: a click that could not be recorded is logged.
    await recordHit(deps, read, 'email.clicked', context, { link: url }).catch((err: unknown) =>
      deps.logger.warn({ err }, 'email click not recorded'),
    );
  }
  return url;
}

async function recordHit(
  deps: TrackingServiceDeps,
  read: ReadToken,
  type: Extract<EmailEventType, 'email.opened' | 'email.clicked'>,
  context: HitContext,
  extra: { link?: string },
): Promise<void> {
  const email = await store.trackedEmail(deps.db, read.accountId, read.emailId);
  const recipient = email && recipientOfTag(deps.secretHashKey, read.emailId, read.recipientTag, email.recipients);
  if (!email || !recipient) return;
  const hit = { accountId: read.accountId, messageId: read.emailId, recipient, ...(read.link !== null ? { link: read.link } : {}) };
  await deps.db.transaction(async (trx) => {
    if (!(await store.countHit(trx, hit))) return;
    const at = new Date().toISOString();
    const data = {
      email_id: read.emailId,
      message_id: email.smtp_message_id,
      from: email.from_address,
      to: email.to_addresses,
      subject: email.subject,
      tags: email.tags ?? [],
      recipient,
      ...extra,
      user_agent: context.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
      [type === 'email.opened' ? 'opened_at' : 'clicked_at']: at,
    };
    await emitEmailEvents(deps, read.accountId, [{ type, data }], trx);
  });
}

export interface Engagement {
  opens: store.OpenRow[];
  clicks: store.ClickRow[];
}

/** The opens and clicks of an email of the account; 404 `email_not_found` for no such email. */
export async function emailEngagement(deps: Pick<AppDeps, 'db'>, accountId: string, emailId: string): Promise<Engagement> {
  if (!isUuid(emailId) || !(await store.emailExists(deps.db, accountId, emailId))) {
    throw new ApiError(404, 'email_not_found', 'email not found');
  }
  return store.engagementOf(deps.db, accountId, emailId);
}
