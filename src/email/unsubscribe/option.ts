import { z } from 'zod';
import { oneClickHeaders } from './links';

const MAX_URL = 900;

const senderUrl = z
  .string({ error: 'must be a string' })
  .max(MAX_URL, { error: `must be at most ${MAX_URL} characters` })
  .refine((value) => /^[\x21-\x7e]+$/.test(value) && !/[<>",]/.test(value), {
    error: 'must be a URL of printable ASCII without spaces, <, >, " or commas (percent-encode them)',
  })
  .refine((value) => URL.canParse(value) && new URL(value).protocol === 'https:', {
    error: 'must be an https:// URL (RFC 8058 one-click needs HTTPS)',
  });

/** The `unsubscribe` option of a send: `true` (or `{}`) for Workyard's own links, `{ url }` for the sender's. */
export const unsubscribeField = z
  .union([z.boolean(), z.strictObject({ url: senderUrl.optional() })], { error: 'must be true, false or an object { url? }' })
  .describe(
    'One-click unsubscribe (RFC 8058, RFC 2369). `true` or `{}`: each recipient\'s copy carries its own `List-Unsubscribe` link to this service (needs PUBLIC_APP_URL) and `List-Unsubscribe-Post: List-Unsubscribe=One-Click`; a click suppresses that recipient (reason `unsubscribe`) and emits `email.unsubscribed`. `{ "url": "https://…" }`: the same two headers with your own HTTPS endpoint, which must accept the one-click POST itself. On, custom List-Unsubscribe and List-Unsubscribe-Post headers are refused.',
  );

export type UnsubscribeOption = z.infer<typeof unsubscribeField> | null | undefined;

/** Whether the option adds the unsubscribe headers (custom ones would then be a second pair). */
export const unsubscribeOn = (option: UnsubscribeOption): boolean => option === true || (typeof option === 'object' && option !== null);

/** Whether each recipient gets a link of this service (`true` or an object without a URL of the sender's). */
export const hostedUnsubscribe = (option: UnsubscribeOption): boolean =>
  option === true || (typeof option === 'object' && option !== null && !option.url);

/** The headers of the sender's own unsubscribe URL, the same for every recipient; none otherwise. */
export function senderUnsubscribeHeaders(option: UnsubscribeOption): Record<string, string> {
  return typeof option === 'object' && option?.url ? oneClickHeaders(option.url) : {};
}
