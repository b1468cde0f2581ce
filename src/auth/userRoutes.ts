import { z } from 'zod';
import { route, type RouteDef } from '../http/route';
import { accountSchema, toAccount, toUser, userSchema } from './schemas';
import { addUser, describeCaller, pageUsers, revokeSession } from './service';
import { accountOf } from './authenticate';
import type { AuthContext } from './types';
import { listEnvelope, listEnvelopeSchema, pageQuery } from '../http/pagination';
import * as docs from './docs';

const tags = ['Account'];

function sessionOf(auth: AuthContext) {
  if (auth.kind !== 'session') throw new Error('session route reached without a session');
  return auth;
}

const newUserBody = z.strictObject({
  email: z.email().max(254).describe('Stored as sent; unique within the account, compared case-insensitively.'),
  name: z.string().trim().min(1).max(200),
  role: z.enum(['admin', 'member']).describe('`owner` cannot be granted: an account has the one owner it was created with.'),
});

const createdUser = z
  .object({
    user: userSchema,
    session_token: z.string().describe('A session token (`wys_…`) for the new user. Shown once: only its hash is stored.'),
  })
  .meta({ id: 'CreatedUser' });

/** The caller, the account's users, and signing out. All take a user session token. */
export function userRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'get',
        path: '/api/me',
        operationId: 'getMe',
        tags,
        auth: { kind: 'session' },
        summary: 'The signed-in user and their account.',
        responses: { 200: { description: 'The caller', schema: z.object({ user: userSchema, account: accountSchema }) } },
      },
      async ({ auth, deps }) => {
        const { userId, accountId } = sessionOf(auth);
        const { user, account } = await describeCaller(deps.db, accountId, userId);
        return { body: { user: toUser(user), account: toAccount(account) } };
      },
    ),

    route(
      {
        method: 'get',
        path: '/api/users',
        operationId: 'listUsers',
        tags,
        auth: { kind: 'session' },
        summary: 'Users of the account, oldest first.',
        description: docs.listUsersDescription,
        query: z.strictObject(pageQuery),
        responses: { 200: { description: 'A page of users', schema: listEnvelopeSchema(userSchema) } },
      },
      async ({ auth, deps, query }) => {
        const { rows, total } = await pageUsers(deps.db, accountOf(auth), query);
        return { body: listEnvelope(rows.map(toUser), total, query) };
      },
    ),

    route(
      {
        method: 'post',
        path: '/api/users',
        operationId: 'createUser',
        tags,
        auth: { kind: 'session', roles: ['owner', 'admin'] },
        summary: 'Add a user to the account.',
        description: docs.createUserDescription,
        body: newUserBody,
        responses: { 201: { description: docs.createUserResponsesR201Description, schema: createdUser } },
        errors: [
          { status: 409, code: 'user_email_taken', description: 'A user of the account already has this email (case-insensitive).' },
        ],
      },
      async ({ auth, deps, body }) => {
        const { user, sessionToken } = await addUser(deps.db, deps.secretHashKey, accountOf(auth), body);
        return { status: 201, body: { user: toUser(user), session_token: sessionToken } };
      },
    ),

    route(
      {
        method: 'delete',
        path: '/api/session',
        operationId: 'deleteSession',
        tags,
        auth: { kind: 'session' },
        summary: docs.deleteSessionSummary,
        description: docs.deleteSessionDescription,
        responses: { 204: { description: 'Revoked' } },
      },
      async ({ auth, deps }) => {
        const { accountId, sessionId } = sessionOf(auth);
        await revokeSession(deps.db, accountId, sessionId);
        return { status: 204 };
      },
    ),
  ];
}
