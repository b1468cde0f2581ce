import { z } from 'zod';
import { route, type RouteDef } from '../../http/route';
import { receiveSiteDelivery, SiteReceiverState } from './receiver';
import { RECEIVER_DESCRIPTION, SITE_WEBHOOK_BODY_LIMIT_BYTES } from './receiverDocs';

const params = z.object({
  connectionId: z.string().describe('The connection the receiver URL belongs to.'),
  urlToken: z.string().describe("The connection's URL token (only its SHA-256 is stored)."),
});

const receiptSchema = z.object({
  received: z.literal(true).optional().describe('The delivery is recorded (now or before).'),
  replay: z.literal(true).optional().describe('This (account, site, event id) was recorded before: nothing is fanned out again.'),
  ignored: z.literal(true).optional().describe('Verified, but not an envelope of a registered trigger about a site of the connection.'),
});

/** The site platform webhook receiver; each call builds a receiver with its own in-process state (one per app). */
export function siteWebhookReceiverRoutes(): RouteDef[] {
  const state = new SiteReceiverState();
  return [
    route(
      {
        method: 'post',
        path: '/api/webhooks/site-platform/{connectionId}/{urlToken}',
        operationId: 'receiveSitePlatformWebhook',
        tags: ['Site platform webhooks'],
        auth: { kind: 'none' },
        rawBody: true,
        maxBodyBytes: SITE_WEBHOOK_BODY_LIMIT_BYTES,
        params,
        summary: 'Receive a webhook delivery from the site platform.',
        description: RECEIVER_DESCRIPTION,
        responses: { 200: { description: 'Recorded, a replay, or ignored', schema: receiptSchema } },
        errors: [
          {
            status: 401,
            code: 'unauthorized',
            description: 'The URL token, or (OAuth connections) the signature or its timestamp, does not verify.',
          },
          { status: 404, code: 'not_found', description: 'No live connection with this id and a registered receiver URL.' },
          { status: 413, code: 'payload_too_large', description: 'The body is over 1 MiB.' },
          {
            status: 503,
            code: 'ledger_unavailable',
            description: 'A form submission could not be written to the forms ledger; nothing was kept and the platform redelivers.',
          },
        ],
      },
      async ({ params: p, rawBody, ctx, deps }) => {
        const header = (name: string) => ctx.get(name) || undefined;
        const receipt = await receiveSiteDelivery(deps, state, {
          connectionId: p.connectionId,
          urlToken: p.urlToken,
          rawBody,
          timestamp: header('x-webflow-timestamp'),
          signature: header('x-webflow-signature'),
        });
        return { status: 200, body: receipt };
      },
    ),
  ];
}
