import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import type { AccountAuth } from '../../auth/types';
import { validIdempotencyKey } from '../../http/idempotency';
import { refId } from '../../http/ids';
import { wholeNumberQuery } from '../../http/pagination';
import type { RouteDef } from '../../http/route';
import { withPreferenceApplied } from '../../jobs/start/answer';
import { PREFER_DOC, PREFERENCE_APPLIED_HEADER } from '../../jobs/start/docs';
import { jobWait } from '../../jobs/start/wait';
import { twinRoutes } from '../twins';
import * as docs from './docs';
import { confirmCall, readTurn, startTurn } from './service';
import { turnSchema } from './turnJson';
import { DEFAULT_EVENTS_LIMIT, MAX_EVENTS_LIMIT } from './view';
import { JOB_OPTIONS_DOC, JOB_OPTIONS_ERRORS, jobOptionFields, jobStartOptionsOf } from '../../jobs/jobOptions';

const tags = ['Marketing AI chats'];
export const MAX_MESSAGE_CHARS = 8_000;

const startBody = z.strictObject({
  message: z.string().trim().min(1).max(MAX_MESSAGE_CHARS).describe(`What the user says (1..${MAX_MESSAGE_CHARS} characters).`),
  session_id: refId().nullable().optional().describe('Continue this chat session of the account; absent: a new session.'),
  project_id: refId()
    .nullable()
    .optional()
    .describe("Pins a new session to this website project of the account: every site operation goes to that project's site."),
  ...jobOptionFields,
});

const turnParams = z.strictObject({ turnId: refId().describe('The turn id (`turn_id` of the start call).') });

const pollQuery = z.strictObject({
  since_seq: wholeNumberQuery('since_seq', 0, 2_147_483_647)
    .default(0)
    .describe('Answer the events after this seq (default 0: from the first).'),
  limit: wholeNumberQuery('limit', 1, MAX_EVENTS_LIMIT)
    .default(DEFAULT_EVENTS_LIMIT)
    .describe(`Events answered at most (default ${DEFAULT_EVENTS_LIMIT}, 1..${MAX_EVENTS_LIMIT}); \`has_more\` says when more follow.`),
});

const confirmBody = z.strictObject({
  call_id: z.string().min(1).max(200).describe('`pending_call.call_id` of the turn.'),
  approve: z.boolean().default(true).describe('true (default): run the call; false: decline it (the model is told it did not run).'),
});

const errors = {
  start: [
    { status: 400, code: 'invalid_idempotency_key', description: 'Idempotency-Key is not 1..255 visible ASCII characters.' },
    { status: 404, code: 'session_not_found', description: 'session_id is not a marketing chat session of the account.' },
    { status: 404, code: 'project_not_found', description: 'project_id is not a website project of the account.' },
    {
      status: 409,
      code: 'session_project_mismatch',
      description: 'project_id differs from the project the session is pinned to; start a new session.',
    },
    { status: 409, code: 'idempotency_key_reused', description: 'The key was used for another request; nothing runs.' },
    { status: 503, code: 'ai_not_configured', description: 'No chat model is configured (MODEL_API_KEY); nothing is written.' },
    { status: 503, code: 'temporal_unavailable', description: 'The job engine did not answer; retry with the same Idempotency-Key.' },
  ],
  read: [{ status: 404, code: 'turn_not_found', description: "No turn with this id in the account (another account's is 404 too)." }],
  confirm: [
    { status: 404, code: 'turn_not_found', description: 'No turn with this id in the account.' },
    { status: 409, code: 'turn_not_awaiting_confirmation', description: 'The turn is not waiting for a confirmation (`turn_status`).' },
    { status: 409, code: 'confirmation_mismatch', description: 'The turn waits for another call (`pending_call_id`).' },
  ],
};

const TURN_LOCATION_HEADER = { Location: 'Where to poll the turn: `/api/marketing/ai/turns/{turnId}` (or `/api/agent/…`).' };
const turnPath = (auth: { kind: string }, turnId: string) =>
  `${auth.kind === 'agent' ? '/api/agent' : '/api'}/marketing/ai/turns/${encodeURIComponent(turnId)}`;

/** Department AI chats: start a turn (bounded wait), poll it, confirm the call it waits on. */
export function aiChatRoutes(): RouteDef[] {
  return [
    ...twinRoutes(
      {
        method: 'post',
        path: '/marketing/ai/turns',
        operationId: 'startMarketingAiTurn',
        tags,
        permission: 'marketing.content:read',
        // A read-only key may chat: its turn is offered read tools only.
        readOnlyMayPost: true,
        summary: 'Say something to the marketing department chat: a turn that runs tools and answers.',
        description: `${docs.START}\n\n${JOB_OPTIONS_DOC}\n\n${PREFER_DOC}`,
        body: startBody,
        responses: {
          200: {
            description: 'The turn finished within the wait (completed, failed or cancelled).',
            schema: turnSchema,
            headers: PREFERENCE_APPLIED_HEADER,
          },
          202: {
            description: 'Still running past the wait, or waiting for a confirmation: what had arrived; poll it.',
            schema: turnSchema,
            headers: { ...PREFERENCE_APPLIED_HEADER, ...TURN_LOCATION_HEADER },
          },
        },
        errors: [...errors.start, ...JOB_OPTIONS_ERRORS],
      },
      async ({ body, auth, deps, ctx, requestId }) => {
        const header = ctx.get('idempotency-key');
        const wait = jobWait(ctx.get('prefer'), deps.config.AI_TURN_WAIT_SECONDS);
        const outcome = await startTurn(deps, auth as AccountAuth, {
          department: 'marketing',
          message: body.message,
          sessionId: body.session_id ?? null,
          projectId: body.project_id ?? null,
          idempotencyKey: header ? validIdempotencyKey(header) : undefined,
          route: `POST ${auth.kind === 'agent' ? '/api/agent' : '/api'}/marketing/ai/turns`,
          requestId,
          options: await jobStartOptionsOf(deps, accountOf(auth), body),
          wait,
        });
        const answer = outcome.done
          ? { status: 200 as const, body: outcome.view }
          : { status: 202 as const, body: outcome.view, headers: { Location: turnPath(auth, outcome.view.turn_id) } };
        return withPreferenceApplied(answer, wait);
      },
    ),
    ...twinRoutes(
      {
        method: 'get',
        path: '/marketing/ai/turns/{turnId}',
        operationId: 'getMarketingAiTurn',
        tags,
        permission: 'marketing.content:read',
        summary: 'Poll a turn: its events after since_seq, its status and stale flag; once done its response.',
        description: docs.POLL,
        params: turnParams,
        query: pollQuery,
        responses: { 200: { description: 'The turn', schema: turnSchema } },
        errors: errors.read,
      },
      async ({ params, query, auth, deps }) => ({
        body: await readTurn(deps, accountOf(auth), params.turnId, query.since_seq, query.limit),
      }),
    ),
    ...twinRoutes(
      {
        method: 'post',
        path: '/marketing/ai/turns/{turnId}/confirm',
        operationId: 'confirmMarketingAiTurnCall',
        tags,
        permission: 'marketing.content:read',
        summary: 'Confirm (or decline) the confirm-gated call a turn waits on.',
        description: docs.CONFIRM,
        params: turnParams,
        body: confirmBody,
        responses: {
          202: {
            description: 'The answer was handed to the turn, which goes on; poll it.',
            schema: turnSchema,
            headers: TURN_LOCATION_HEADER,
          },
        },
        errors: errors.confirm,
      },
      async ({ params, body, auth, deps }) => ({
        status: 202,
        body: await confirmCall(deps, accountOf(auth), params.turnId, { callId: body.call_id, approve: body.approve }),
        headers: { Location: turnPath(auth, params.turnId) },
      }),
    ),
  ];
}
