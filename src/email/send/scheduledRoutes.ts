import { z } from 'zod';
import { ApiError } from '../../http/errors';
import { idParams } from '../../http/ids';
import { route, type ErrorSpec, type RouteDef } from '../../http/route';
import type { RouteAuthContext } from '../../http/routeAuth';
import { cancelEmail, rescheduleEmail } from './schedule';
import { scheduledAt } from './schema';
import { readStoredEmail, storedEmailSchema } from './storedEmail';

const tags = ['Email sending'];

const rescheduleBody = z.strictObject({ scheduled_at: scheduledAt() });

const errors: ErrorSpec[] = [
  { status: 404, code: 'email_not_found', description: 'No such email in this account (an id of another account too).' },
  {
    status: 409,
    code: 'email_not_scheduled',
    description: 'The email is not `scheduled` any more (`details.status`: sending, sent, simulated, failed, cancelled …).',
  },
  { status: 503, code: 'temporal_unavailable', description: 'The job engine did not answer; the email keeps its previous time.' },
];

const SCOPE = 'Scope `email:send`: the key that may schedule a send may move or cancel it (any key of the account with the scope).';

function emailKeyAuth(auth: RouteAuthContext) {
  if (auth.kind !== 'emailKey') throw new ApiError(500, 'internal', 'route needs an email key');
  return auth;
}

/** `PATCH /v1/email/emails/{id}` and `POST /v1/email/emails/{id}/cancel`: a scheduled email's time, or its end. */
export function scheduledEmailRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'patch',
        path: '/v1/email/emails/{id}',
        operationId: 'rescheduleEmail',
        tags,
        auth: { kind: 'emailKey', scope: 'email:send' },
        summary: 'Move a scheduled email to a new time.',
        description: `Only while the email is \`scheduled\`: its \`scheduled_at\` changes and its workflow (\`email-scheduled:<account>:<id>\`) re-arms its timer, so it is sent at the new time, never the old one. ${SCOPE}`,
        params: idParams,
        body: rescheduleBody,
        responses: { 200: { description: 'The email with its new time', schema: storedEmailSchema } },
        errors,
      },
      async ({ params, body, auth, deps }) => {
        const key = emailKeyAuth(auth);
        await rescheduleEmail(deps, key, params.id, body.scheduled_at);
        return { body: await readStoredEmail(deps, key, params.id) };
      },
    ),

    route(
      {
        method: 'post',
        path: '/v1/email/emails/{id}/cancel',
        operationId: 'cancelEmail',
        tags,
        auth: { kind: 'emailKey', scope: 'email:send' },
        summary: 'Cancel a scheduled email.',
        description: `Only while the email is \`scheduled\`: it becomes \`cancelled\` (its body is dropped) and its workflow ends without sending. ${SCOPE}`,
        params: idParams,
        responses: { 200: { description: 'The cancelled email', schema: storedEmailSchema } },
        errors: errors.filter((e) => e.status !== 503),
      },
      async ({ params, auth, deps }) => {
        const key = emailKeyAuth(auth);
        await cancelEmail(deps, key, params.id);
        return { body: await readStoredEmail(deps, key, params.id) };
      },
    ),
  ];
}
