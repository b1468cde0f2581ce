import type { Context } from 'koa';
import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { idParams } from '../../http/ids';
import { route, type RouteDef } from '../../http/route';
import * as docs from './docs';
import { engagementSchema, toEngagementJson } from './engagementJson';
import { CLICK_PATH, OPEN_PATH } from './links';
import { PIXEL_GIF, PIXEL_HEADERS, REDIRECT_HEADERS } from './pixel';
import { emailEngagement, followClick, recordOpen, type HitContext } from './service';

const tags = ['Email tracking'];
const params = z.object({ token: z.string().describe('The token of one recipient of one email (and, for a click, one link).') });

const hitOf = (ctx: Context): HitContext => ({ userAgent: ctx.get('user-agent') || undefined, count: ctx.method !== 'HEAD' });

/** The open pixel and tracked links of emails from domains with tracking on (public: the token is the credential), and the counts. */
export function emailTrackingRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'get',
        path: `${OPEN_PATH}/{token}.gif`,
        operationId: 'loadEmailOpenPixel',
        tags,
        auth: { kind: 'none' },
        params,
        summary: "The open-tracking pixel of one recipient's copy.",
        description: docs.openPixelDescription,
        responses: { 200: { description: 'A 1×1 transparent GIF (43 bytes), never cached', contentType: 'image/gif' } },
      },
      async ({ params: p, deps, ctx }) => {
        try {
          await recordOpen(deps, p.token, hitOf(ctx));
        } catch (err) {
          // The image is answered whatever happened: an open that could not be recorded is logged, never shown.
          deps.logger.warn({ err, requestId: ctx.state.requestId }, 'email open not recorded');
        }
        return { body: PIXEL_GIF, headers: PIXEL_HEADERS };
      },
    ),

    route(
      {
        method: 'get',
        path: `${CLICK_PATH}/{token}`,
        operationId: 'followEmailTrackedLink',
        tags,
        auth: { kind: 'none' },
        params,
        summary: 'A tracked link: redirects to the URL it was made for.',
        description: docs.clickDescription,
        responses: { 302: { description: 'To the original URL (`Location`)', headers: { Location: 'The URL the message linked to' } } },
        errors: [
          {
            status: 404,
            code: 'tracked_link_not_found',
            description:
              "Not a link this service made (malformed, altered, another server's) or its email is gone; the answer never says which.",
          },
        ],
      },
      async ({ params: p, deps, ctx }) => {
        const url = await followClick(deps, p.token, hitOf(ctx));
        return { status: 302, headers: { ...REDIRECT_HEADERS, location: url } };
      },
    ),

    route(
      {
        method: 'get',
        path: '/v1/email/emails/{id}/engagement',
        operationId: 'getEmailEngagement',
        tags,
        auth: { kind: 'emailKey', scope: 'email:send' },
        params: idParams,
        summary: 'Opens and clicks of an email, per recipient.',
        description: docs.engagementDescription,
        responses: { 200: { description: 'The counts', schema: engagementSchema } },
        errors: [{ status: 404, code: 'email_not_found', description: 'No such email in this account.' }],
      },
      async ({ params: p, auth, deps }) => ({ body: toEngagementJson(p.id, await emailEngagement(deps, accountOf(auth), p.id)) }),
    ),
  ];
}
