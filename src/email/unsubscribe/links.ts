import type { Config } from '../../config';
import { ApiError } from '../../http/errors';
import type { ErrorSpec } from '../../http/route';
import { unsubscribeToken, type UnsubscribeTarget } from './token';

export const UNSUBSCRIBE_PATH = '/v1/email/unsubscribe';

/** For the send and batch routes' `errors` (in a batch, the failing message's result). */
export const unsubscribeNotConfiguredError: ErrorSpec = {
  status: 422,
  code: 'unsubscribe_not_configured',
  description:
    '`unsubscribe` asks for links to this service, but the server has no public URL (PUBLIC_APP_URL is unset), so a recipient could not reach them; nothing was sent. Set PUBLIC_APP_URL, or give your own `unsubscribe.url`.',
};

/** The send-time check of a message asking for this service's unsubscribe links. */
export function assertUnsubscribeServed(config: Pick<Config, 'PUBLIC_APP_URL'>): void {
  if (!config.PUBLIC_APP_URL) {
    throw new ApiError(
      422,
      'unsubscribe_not_configured',
      'unsubscribe links need a public URL of this server (PUBLIC_APP_URL is unset); nothing was sent. Give your own unsubscribe.url or ask the operator to set it',
      { details: { field: 'unsubscribe' } },
    );
  }
}

/** The one-click unsubscribe URL of one recipient's copy of an email. */
export function unsubscribeUrl(publicAppUrl: string, secret: string, target: UnsubscribeTarget): string {
  return `${publicAppUrl.replace(/\/+$/, '')}${UNSUBSCRIBE_PATH}/${unsubscribeToken(secret, target)}`;
}

/** RFC 2369 and RFC 8058 headers of one HTTPS unsubscribe URL. */
export function oneClickHeaders(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}
