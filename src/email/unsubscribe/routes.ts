import type { Context } from 'koa';
import { z } from 'zod';
import { ApiError } from '../../http/errors';
import { HTML_PAGE } from '../../http/htmlPage';
import { route, type RouteDef } from '../../http/route';
import { UNSUBSCRIBE_PATH } from './links';
import { confirmPage, donePage, notFoundPage, PAGE_HEADERS } from './page';
import { unsubscribe } from './service';
import { readUnsubscribeToken } from './token';

const tags = ['Email unsubscribe'];
const path = `${UNSUBSCRIBE_PATH}/{token}`;
const params = z.object({ token: z.string().describe('The token of one recipient of one email (from its List-Unsubscribe header).') });

/** Mailbox providers post the one-click form (`List-Unsubscribe=One-Click`, urlencoded or multipart): a few bytes. */
export const UNSUBSCRIBE_BODY_LIMIT_BYTES = 4096;

const NOT_FOUND =
  '`unsubscribe_link_not_found`: not a link this service made (malformed, altered or for an account that is gone); the answer never says which.';

const wantsHtml = (ctx: Context) => /\btext\/html\b/i.test(ctx.get('accept'));

const html = <S extends number>(status: S, body: string) => ({ status, body, headers: PAGE_HEADERS });

/** The one-click unsubscribe links of emails sent with `unsubscribe` on: public, the token is the credential. */
export function emailUnsubscribeRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'post',
        path,
        operationId: 'unsubscribeEmailRecipient',
        tags,
        auth: { kind: 'none' },
        rawBody: true,
        requestContentType: 'application/x-www-form-urlencoded',
        maxBodyBytes: UNSUBSCRIBE_BODY_LIMIT_BYTES,
        params,
        summary: 'One-click unsubscribe (RFC 8058): what mailbox providers call.',
        description:
          "The URL of an email's `List-Unsubscribe` header, called by the mailbox provider (body `List-Unsubscribe=One-Click`, any form encoding) or by the button of the page `GET` shows. Suppresses the recipient the link was made for, for the sending account (reason `unsubscribe`, see `/v1/email/suppressions`), and emits `email.unsubscribed`. Calling it again answers the same and changes nothing. No credential: the link is one (an HMAC binds account, email and recipient). JSON, or a confirmation page when `Accept` names text/html.",
        responses: {
          200: {
            description: 'Unsubscribed (now or before): JSON, or a confirmation page when `Accept` names text/html',
            schema: z.object({ object: z.literal('unsubscribe'), unsubscribed: z.literal(true) }),
            otherMediaTypes: HTML_PAGE,
          },
          // The handler answers the page; the coded error is thrown, as every coded error is.
          404: { description: `${NOT_FOUND} The coded error, or a page when \`Accept\` names text/html.`, contentType: 'text/html' },
        },
        errors: [{ status: 413, code: 'payload_too_large', description: `The body is over ${UNSUBSCRIBE_BODY_LIMIT_BYTES} bytes.` }],
      },
      async ({ params: p, deps, ctx }) => {
        try {
          await unsubscribe(deps, p.token);
        } catch (err) {
          if (err instanceof ApiError && err.status === 404 && wantsHtml(ctx)) return html(404, notFoundPage());
          throw err;
        }
        return wantsHtml(ctx)
          ? html(200, donePage())
          : { body: { object: 'unsubscribe' as const, unsubscribed: true as const }, headers: { 'cache-control': 'no-store' } };
      },
    ),

    route(
      {
        method: 'get',
        path,
        operationId: 'showEmailUnsubscribePage',
        tags,
        auth: { kind: 'none' },
        params,
        summary: 'The page a person sees opening an unsubscribe link.',
        description:
          'A small HTML page with one button that posts the one-click form to the same URL. Opening the link never unsubscribes: mail scanners and link previews follow links.',
        responses: {
          200: { description: 'The confirmation page', contentType: 'text/html' },
          404: { description: `${NOT_FOUND} Answered as a page.`, contentType: 'text/html' },
        },
      },
      async ({ params: p, deps }) =>
        readUnsubscribeToken(deps.secretHashKey, p.token) ? html(200, confirmPage()) : html(404, notFoundPage()),
    ),
  ];
}
