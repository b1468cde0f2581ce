import type { Config } from '../../config';
import type { Knex } from '../../db/knex';
import { messageTracking, trackedHtmlFor } from '../tracking/variant';
import { oneClickHeaders, unsubscribeUrl } from '../unsubscribe/links';
import type { PreparedMessage } from './prepare';

/** What one recipient's copy of a message has of its own (headers added, html replaced); null: the shared copy. */
export interface RecipientVariant {
  headers?: Record<string, string>;
  html?: string;
}

export interface PersonalizeDeps {
  db: Knex;
  config: Config;
}

/**
 * The recipient's own copy of a message, when it needs one: with `unsubscribe` on, its own one-click unsubscribe
 * link (List-Unsubscribe, List-Unsubscribe-Post); with its sender domain's open or click tracking on, an html part
 * with its own pixel and tracked links (src/email/tracking). A message with no per-recipient part is composed and
 * signed once for every recipient.
 */
export async function recipientVariant(
  deps: PersonalizeDeps,
  accountId: string,
  message: PreparedMessage,
  recipient: string,
): Promise<RecipientVariant | null> {
  const headers = message.unsubscribe ? unsubscribeHeaders(deps.config, accountId, message, recipient) : undefined;
  const tracking = await messageTracking(deps, accountId, message);
  const html = tracking ? trackedHtmlFor(tracking, recipient) : undefined;
  if (!headers && html === undefined) return null;
  return { ...(headers ? { headers } : {}), ...(html !== undefined ? { html } : {}) };
}

function unsubscribeHeaders(config: Config, accountId: string, message: PreparedMessage, recipient: string): Record<string, string> {
  const { PUBLIC_APP_URL: publicUrl, SECRET_HASH_KEY: secret } = config;
  // The API checked PUBLIC_APP_URL when it accepted the message; a worker without it (or the secret) cannot make the
  // link, so the attempt fails and is retried rather than sending a copy without it.
  if (!publicUrl || !secret) throw new Error('this worker needs PUBLIC_APP_URL and SECRET_HASH_KEY to add unsubscribe links');
  const url = unsubscribeUrl(publicUrl, secret, { accountId, emailId: message.id, recipient: recipient.toLowerCase() });
  return oneClickHeaders(url);
}
