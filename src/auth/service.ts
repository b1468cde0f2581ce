import type { Knex } from '../db/knex';
import { ApiError } from '../http/errors';
import { offsetOf, type Page } from '../http/pagination';
import { PERMISSIONS, type Permission } from './permissions';
import { CREDENTIAL_PREFIX, hashSecret, newCredential, parseCredential, secretMatches } from './secrets';
import type { AgentKeyCache } from './agentKeyCache';
import * as store from './store';
import type { AuthContext, Role } from './types';

export interface NewAgentKey {
  name: string;
  permissions: Permission[];
  readOnly: boolean;
}

export async function createSession(db: Knex, hashKey: string, accountId: string, userId: string): Promise<string> {
  const cred = newCredential(CREDENTIAL_PREFIX.session);
  await store.insertSession(db, accountId, { id: cred.id, user_id: userId, secret_hash: hashSecret(hashKey, cred.secret) });
  return cred.token;
}

export async function createAgentKey(db: Knex, hashKey: string, accountId: string, input: NewAgentKey) {
  const cred = newCredential(CREDENTIAL_PREFIX.agentKey);
  const key = await store.insertAgentKey(db, accountId, {
    id: cred.id,
    name: input.name,
    permissions: [...new Set(input.permissions)],
    read_only: input.readOnly,
    secret_hash: hashSecret(hashKey, cred.secret),
    token_hint: cred.token.slice(-4),
  });
  return { key, token: cred.token };
}

/** A new account with its owner, an owner session and an agent key holding every permission. */
export async function createAccount(db: Knex, hashKey: string, input: { name: string; ownerEmail: string; ownerName: string }) {
  return db.transaction(async (trx) => {
    const account = await store.insertAccount(trx, input.name);
    const owner = await store.insertUser(trx, account.id, { email: input.ownerEmail, name: input.ownerName, role: 'owner' });
    const ownerToken = await createSession(trx, hashKey, account.id, owner.id);
    const agent = await createAgentKey(trx, hashKey, account.id, { name: 'default', permissions: [...PERMISSIONS], readOnly: false });
    return { account, owner, ownerToken, agentKey: agent.token, agentKeyRow: agent.key };
  });
}

export async function createUser(db: Knex, hashKey: string, accountId: string, input: { email: string; name: string; role: Role }) {
  return db.transaction(async (trx) => {
    const user = await store.insertUser(trx, accountId, input);
    const sessionToken = await createSession(trx, hashKey, accountId, user.id);
    return { user, sessionToken };
  });
}

/** Adds a user with a first session; an email already in the account (any case) is 409 `user_email_taken`. */
export async function addUser(db: Knex, hashKey: string, accountId: string, input: { email: string; name: string; role: Role }) {
  try {
    return await createUser(db, hashKey, accountId, input);
  } catch (err) {
    const e = err as { code?: string; constraint?: string };
    if (e.code === '23505' && e.constraint === 'users_account_email_unique') {
      throw new ApiError(409, 'user_email_taken', 'a user with this email already exists in the account');
    }
    throw err;
  }
}

/** The oldest account (the one a first `npm start` creates), or none yet. */
export const findFirstAccount = (db: Knex) => store.findFirstAccount(db);

export const listAllAccounts = (db: Knex) => store.listAllAccounts(db);

/** The account's agent keys, revoked ones too, newest first. */
export const listAgentKeys = (db: Knex, accountId: string) => store.listAgentKeys(db, accountId);

export async function accountExists(db: Knex, accountId: string): Promise<boolean> {
  return (await store.findAccount(db, accountId)) !== undefined;
}

/**
 * Serialises writers of one account's rows in other areas (e.g. two first shop connects): locks the account's row
 * for the rest of the transaction `trx`.
 */
export const lockAccount = (trx: Knex, accountId: string) => store.lockAccount(trx, accountId);

/** Whether `userId` is a user of the account; when so, the user cannot be deleted before `trx` ends. */
export async function holdUserOfAccount(trx: Knex, accountId: string, userId: string): Promise<boolean> {
  return (await store.lockUserOfAccount(trx, accountId, userId)) !== undefined;
}

/** The caller's user and account; a user removed since authentication is treated as an invalid credential. */
export async function describeCaller(db: Knex, accountId: string, userId: string) {
  const [account, user] = await Promise.all([store.findAccount(db, accountId), store.findUser(db, accountId, userId)]);
  if (!account || !user) throw new ApiError(401, 'invalid_credentials', 'the credential is invalid or revoked');
  return { account, user };
}

const windowOf = (p: Page) => ({ limit: p.limit, offset: offsetOf(p) });

export const pageUsers = (db: Knex, accountId: string, page: Page) => store.pageUsers(db, accountId, windowOf(page));
export const pageAgentKeys = (db: Knex, accountId: string, page: Page) => store.pageAgentKeys(db, accountId, windowOf(page));

const agentKeyNotFound = () => new ApiError(404, 'agent_key_not_found', 'agent key not found');

export async function getAgentKey(db: Knex, accountId: string, id: string) {
  const row = await store.getAgentKey(db, accountId, id);
  if (!row) throw agentKeyNotFound();
  return row;
}

/** The name of one of the account's agent keys (revoked ones too: audit rows name who wrote), or undefined. */
export async function agentKeyName(db: Knex, accountId: string, id: string): Promise<string | undefined> {
  return (await store.getAgentKey(db, accountId, id))?.name;
}

/** Revokes a key of the account; revoking again keeps the first revocation time. */
export async function revokeAgentKey(db: Knex, accountId: string, id: string) {
  const row = await store.revokeAgentKey(db, accountId, id);
  if (!row) throw agentKeyNotFound();
  return row;
}

export const revokeSession = (db: Knex, accountId: string, sessionId: string) => store.revokeSession(db, accountId, sessionId);

/** The session row a token authenticates as (a live session, the right secret), or null. */
async function liveSession(db: Knex, hashKey: string, token: string) {
  const parsed = parseCredential(CREDENTIAL_PREFIX.session, token);
  if (!parsed) return null;
  const row = await store.findSessionWithUser(db, parsed.id);
  return row && !row.revoked_at && secretMatches(hashKey, parsed.secret, row.secret_hash) ? row : null;
}

export async function authenticateSession(db: Knex, hashKey: string, token: string): Promise<AuthContext | null> {
  const row = await liveSession(db, hashKey, token);
  if (!row) return null;
  if (isStale(row.last_used_at)) void store.touchCredential(db, 'session_tokens', row.id).catch(() => undefined);
  return { kind: 'session', accountId: row.account_id, userId: row.user_id, role: row.role, sessionId: row.id };
}

/** The agent key row a token authenticates as (not revoked, the right secret), or null. */
async function liveAgentKey(db: Knex, hashKey: string, token: string, keys?: AgentKeyCache) {
  const parsed = parseCredential(CREDENTIAL_PREFIX.agentKey, token);
  if (!parsed) return null;
  const row = await (keys ? keys.get(parsed.id) : store.findAgentKey(db, parsed.id));
  return row && !row.revoked_at && secretMatches(hashKey, parsed.secret, row.secret_hash) ? row : null;
}

/** Whether a token is a live session or agent key, checked without marking it used (it was sent where it does not apply). */
export async function isLiveCredential(kind: 'session' | 'agentKey', db: Knex, hashKey: string, token: string, keys?: AgentKeyCache) {
  return (kind === 'session' ? await liveSession(db, hashKey, token) : await liveAgentKey(db, hashKey, token, keys)) !== null;
}

/** An agent key's caller; with `keys` (the process's cache, kept fresh by the database's announcements) the key is read through it. */
export async function authenticateAgentKey(db: Knex, hashKey: string, token: string, keys?: AgentKeyCache): Promise<AuthContext | null> {
  const row = await liveAgentKey(db, hashKey, token, keys);
  if (!row) return null;
  if (isStale(row.last_used_at)) {
    row.last_used_at = new Date(); // the kept row too, so the stamp goes out once a minute, not on every request
    void store.touchCredential(db, 'agent_keys', row.id).catch(() => undefined);
  }
  return { kind: 'agent', accountId: row.account_id, keyId: row.id, permissions: row.permissions, readOnly: row.read_only };
}

function isStale(lastUsed: Date | null): boolean {
  return !lastUsed || Date.now() - lastUsed.getTime() > 60_000;
}
