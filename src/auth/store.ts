import type { Knex } from '../db/knex';
import type { Permission } from './permissions';
import { preparedRows } from '../db/prepared';
import type { Role } from './types';

export interface AccountRow {
  id: string;
  name: string;
  created_at: Date;
}
export interface UserRow {
  id: string;
  account_id: string;
  email: string;
  name: string;
  role: Role;
  created_at: Date;
}
export interface SessionRow {
  id: string;
  account_id: string;
  user_id: string;
  secret_hash: string;
  last_used_at: Date | null;
  revoked_at: Date | null;
}
export interface AgentKeyRow {
  id: string;
  account_id: string;
  name: string;
  permissions: Permission[];
  read_only: boolean;
  secret_hash: string;
  token_hint: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export async function insertAccount(db: Knex, name: string): Promise<AccountRow> {
  const [row] = await db('accounts').insert({ name }).returning('*');
  return row;
}

/** Every account of the installation, oldest first: the operator's `account list`, so no account filter. */
export async function listAllAccounts(db: Knex): Promise<AccountRow[]> {
  return db('accounts').orderBy([{ column: 'created_at' }, { column: 'id' }]);
}

/** The oldest account of the installation: a question about the installation, so no account filter. */
export async function findFirstAccount(db: Knex): Promise<Pick<AccountRow, 'id' | 'name'> | undefined> {
  return db('accounts').orderBy('created_at', 'asc').first('id', 'name');
}

export async function insertUser(db: Knex, accountId: string, user: { email: string; name: string; role: Role }): Promise<UserRow> {
  const [row] = await db('users')
    .insert({ account_id: accountId, ...user })
    .returning('*');
  return row;
}

export async function findUser(db: Knex, accountId: string, userId: string): Promise<UserRow | undefined> {
  return db('users').where({ account_id: accountId, id: userId }).first();
}

export async function listUsers(db: Knex, accountId: string): Promise<UserRow[]> {
  return db('users').where({ account_id: accountId }).orderBy('created_at', 'asc');
}

export interface PageWindow {
  limit: number;
  offset: number;
}

/** One page of the account's users, oldest first, and how many there are in all. */
export async function pageUsers(db: Knex, accountId: string, window: PageWindow): Promise<{ rows: UserRow[]; total: number }> {
  const [rows, [{ count }]] = await Promise.all([
    db('users')
      .where({ account_id: accountId })
      .orderBy([
        { column: 'created_at', order: 'asc' },
        { column: 'id', order: 'asc' },
      ])
      .limit(window.limit)
      .offset(window.offset),
    db('users').where({ account_id: accountId }).count<{ count: number }[]>('* as count'),
  ]);
  return { rows, total: Number(count) };
}

export async function findAccount(db: Knex, accountId: string): Promise<AccountRow | undefined> {
  return db('accounts').where({ id: accountId }).first();
}

/** Locks the account's row (no key update) for the rest of the transaction `trx`. */
export async function lockAccount(trx: Knex, accountId: string): Promise<void> {
  await trx('accounts').where({ id: accountId }).forNoKeyUpdate().first('id');
}

/** The user of the account, its row locked against deletion for the rest of the transaction `trx`. */
export async function lockUserOfAccount(trx: Knex, accountId: string, userId: string): Promise<{ id: string } | undefined> {
  return trx('users').where({ account_id: accountId, id: userId }).forKeyShare().first('id');
}

export async function insertSession(db: Knex, accountId: string, row: { id: string; user_id: string; secret_hash: string }): Promise<void> {
  await db('session_tokens').insert({ account_id: accountId, ...row });
}

/**
 * Credential lookups take only the credential's own id: the account is what they reveal. They run on every
 * authenticated request, so their SQL is fixed and runs as a named prepared statement (parsed and planned once
 * per connection).
 */
export async function findSessionWithUser(db: Knex, id: string): Promise<(SessionRow & { role: Role }) | undefined> {
  const [row] = await preparedRows<SessionRow & { role: Role }>(
    db,
    'auth_find_session',
    'select s.id, s.account_id, s.user_id, s.secret_hash, s.last_used_at, s.revoked_at, u.role from session_tokens s join users u on u.id = s.user_id where s.id = $1',
    [id],
  );
  return row;
}

export async function revokeSession(db: Knex, accountId: string, id: string): Promise<void> {
  await db('session_tokens').where({ account_id: accountId, id }).whereNull('revoked_at').update({ revoked_at: db.fn.now() });
}

export async function insertAgentKey(
  db: Knex,
  accountId: string,
  row: Omit<AgentKeyRow, 'account_id' | 'created_at' | 'last_used_at' | 'revoked_at'>,
): Promise<AgentKeyRow> {
  const [created] = await db('agent_keys')
    .insert({ account_id: accountId, ...row })
    .returning('*');
  return created;
}

/** What authenticating an agent key reads: nothing it does not use (each column read is parsed on every request). */
export type AgentKeyAuthRow = Pick<
  AgentKeyRow,
  'id' | 'account_id' | 'permissions' | 'read_only' | 'secret_hash' | 'last_used_at' | 'revoked_at'
>;

export async function findAgentKey(db: Knex, id: string): Promise<AgentKeyAuthRow | undefined> {
  const [row] = await preparedRows<AgentKeyAuthRow>(
    db,
    'auth_find_agent_key',
    'select id, account_id, permissions, read_only, secret_hash, last_used_at, revoked_at from agent_keys where id = $1',
    [id],
  );
  return row;
}

export async function listAgentKeys(db: Knex, accountId: string): Promise<AgentKeyRow[]> {
  return db('agent_keys').where({ account_id: accountId }).orderBy('created_at', 'desc');
}

/** One page of the account's agent keys (revoked ones included), newest first, and how many there are in all. */
export async function pageAgentKeys(db: Knex, accountId: string, window: PageWindow): Promise<{ rows: AgentKeyRow[]; total: number }> {
  const [rows, [{ count }]] = await Promise.all([
    db('agent_keys')
      .where({ account_id: accountId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(window.limit)
      .offset(window.offset),
    db('agent_keys').where({ account_id: accountId }).count<{ count: number }[]>('* as count'),
  ]);
  return { rows, total: Number(count) };
}

export async function getAgentKey(db: Knex, accountId: string, id: string): Promise<AgentKeyRow | undefined> {
  return db('agent_keys').where({ account_id: accountId, id }).first();
}

export async function revokeAgentKey(db: Knex, accountId: string, id: string): Promise<AgentKeyRow | undefined> {
  const [row] = await db('agent_keys')
    .where({ account_id: accountId, id })
    .update({ revoked_at: db.raw('coalesce(revoked_at, now())') })
    .returning('*');
  return row;
}

/** Stamps last use at most once a minute, so authentication costs no write on most requests. */
export async function touchCredential(db: Knex, table: 'session_tokens' | 'agent_keys', id: string): Promise<void> {
  await db(table)
    .where({ id })
    .andWhere((q) => q.whereNull('last_used_at').orWhere('last_used_at', '<', db.raw(`now() - interval '60 seconds'`)))
    .update({ last_used_at: db.fn.now() });
}
