import type { Context } from 'koa';
import { accountOf } from '../auth/authenticate';
import type { AuthContext } from '../auth/types';
import type { AppDeps } from '../deps';
import { EVENT_STREAM_HEADERS, openEventStream, type EventStream, type ServerSentEvent } from '../http/eventStream';
import { route, type RouteDef } from '../http/route';
import { hasSeenTheEnd, jobEvents, parseEventId, snapshotOf } from './events';
import * as docs from './eventsDocs';
import { JobEventStreamSchema, JobEventsQuery, JobTokenBody, JobTokenSchema } from './eventsSchemas';
import { jobTokenInvalid, mintJobToken, verifyJobToken } from './jobToken';
import { JOB_ROUTE_VARIANTS, JOB_TAGS as tags, jobNotFoundError as notFound, type JobRouteVariant as Variant } from './routeVariants';
import { JobIdParams } from './schemas';
import { getJob } from './service';

const tokenErrors = [
  { status: 401, code: 'job_token_invalid', description: 'The `token` is malformed, altered, or for another job.' },
  { status: 401, code: 'job_token_expired', description: 'The `token` has expired; ask for a new one.' },
];

/** How long an `EventSource` waits before it reconnects after the stream broke off. */
const RETRY_MS = 2_000;

/** `?token=` stands in for the route's credential; it opens only the job in the path. */
async function jobTokenCredential(ctx: Context, deps: AppDeps): Promise<AuthContext | undefined> {
  const token = ctx.query.token;
  if (token === undefined) return undefined;
  if (typeof token !== 'string') throw jobTokenInvalid();
  const claims = verifyJobToken(deps.secretHashKey, token, String(ctx.params.id));
  return { kind: 'jobToken', accountId: claims.accountId, jobId: claims.jobId };
}

async function pump(events: AsyncGenerator<ServerSentEvent>, stream: EventStream, deps: AppDeps, requestId: string): Promise<void> {
  try {
    for await (const event of events) stream.send(event);
  } catch (err) {
    // The client reconnects with its Last-Event-ID and misses nothing.
    deps.logger.warn({ requestId, err: err instanceof Error ? err.message : String(err) }, 'job event stream broke off');
  } finally {
    stream.end();
  }
}

function routesFor(v: Variant): RouteDef[] {
  return [
    route(
      {
        method: 'get',
        path: `${v.prefix}/{id}/events`,
        operationId: v.op('streamJobEvents'),
        tags,
        auth: v.read,
        ownCredential: jobTokenCredential,
        params: JobIdParams,
        query: JobEventsQuery,
        summary: docs.eventsSummary,
        description: docs.eventsDescription,
        responses: {
          200: {
            description: docs.eventsResponse,
            schema: JobEventStreamSchema,
            contentType: 'text/event-stream',
            headers: { 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' },
          },
          204: { description: '`Last-Event-ID` names the final event of this closed job: there is nothing more to send.' },
        },
        errors: [notFound, ...tokenErrors],
      },
      async ({ auth, deps, params, ctx, requestId }) => {
        const first = await snapshotOf(deps.temporal, accountOf(auth), params.id);
        const seen = parseEventId(ctx.get('last-event-id') || undefined);
        if (hasSeenTheEnd(first, seen)) return { status: 204 };
        const stream = openEventStream(ctx, RETRY_MS);
        const events = jobEvents(deps.temporal, first, seen, { pollMs: deps.config.JOB_EVENTS_POLL_MS, signal: stream.signal });
        void pump(events, stream, deps, requestId);
        const cors: Record<string, string> = auth.kind === 'jobToken' ? { 'Access-Control-Allow-Origin': '*' } : {};
        return { status: 200, body: stream.body, headers: { ...EVENT_STREAM_HEADERS, ...cors } };
      },
    ),

    route(
      {
        method: 'post',
        path: `${v.prefix}/{id}/tokens`,
        operationId: v.op('createJobToken'),
        tags,
        auth: v.mint,
        params: JobIdParams,
        body: JobTokenBody,
        summary: docs.tokensSummary,
        description: docs.tokensDescription,
        responses: { 201: { description: 'The token, shown only now', schema: JobTokenSchema } },
        errors: [notFound],
      },
      async ({ auth, deps, params, body }) => {
        const accountId = accountOf(auth);
        await getJob(deps.temporal, accountId, params.id);
        const { token, expiresAt } = mintJobToken(deps.secretHashKey, accountId, params.id, body.ttl_seconds);
        const base = deps.config.PUBLIC_APP_URL?.replace(/\/+$/, '') ?? '';
        return {
          status: 201,
          headers: { 'Cache-Control': 'no-store' },
          body: {
            token,
            expires_at: expiresAt.toISOString(),
            events_url: `${base}/api/jobs/${encodeURIComponent(params.id)}/events?token=${token}`,
          },
        };
      },
    ),
  ];
}

/** Live job updates (Server-Sent Events) and the read-only job tokens a browser subscribes with. */
export function jobEventRoutes(): RouteDef[] {
  return JOB_ROUTE_VARIANTS.flatMap(routesFor);
}
