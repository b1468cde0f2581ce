import { ApiError } from '../../http/errors';
import { idParams } from '../../http/ids';
import { route, type RouteDef } from '../../http/route';
import { messageOutcomes, messageOutcomesShape } from '../outcomes';
import { readStoredEmail, storedEmailSchema } from './storedEmail';

// `GET /v1/email/emails/{id}` in a file of its own: the delivery events of its outcomes land here.

export const getEmailByIdDescription = [
  'An email of the account, as Resend names the resource: the same email as `GET /v1/email/messages/{id}` (scope `email:batch`), here with scope `email:send`, so a key that sends (and schedules) can read, and then reschedule or cancel, what it sent.',
  "`status`: `scheduled` → `sending` → `sent` / `failed`, or `cancelled`; a test key's scheduled email is stored too and becomes `simulated` at its time. A test key's immediate sends are not stored (404). An id of another account is 404.",
].join('\n\n');

export function emailByIdRoute(): RouteDef {
  return route(
    {
      method: 'get',
      path: '/v1/email/emails/{id}',
      operationId: 'getEmailById',
      tags: ['Email sending'],
      auth: { kind: 'emailKey', scope: 'email:send' },
      summary: 'Read an email: its status, scheduled_at, created_at and sent_at.',
      description: getEmailByIdDescription,
      params: idParams,
      responses: {
        200: { description: 'The email', schema: storedEmailSchema.extend(messageOutcomesShape).meta({ id: 'EmailMessageWithOutcomes' }) },
      },
      errors: [{ status: 404, code: 'email_not_found', description: 'No such email in this account.' }],
    },
    async ({ params, auth, deps }) => {
      if (auth.kind !== 'emailKey') throw new ApiError(500, 'internal', 'route needs an email key');
      const email = await readStoredEmail(deps, auth, params.id);
      const outcomes = await messageOutcomes(deps.db, auth.accountId, email.id);
      if (!outcomes) throw new ApiError(404, 'email_not_found', 'email not found');
      return { body: { ...email, ...outcomes } };
    },
  );
}
