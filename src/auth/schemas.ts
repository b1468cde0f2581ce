import { z } from 'zod';
import type { AccountRow, AgentKeyRow, UserRow } from './store';

/** Response shapes of the account and credential routes, and the mapping from rows to them. Secrets never appear here. */

// Response shapes only document (they never validate), so plain formats keep the document readable.
const timestamp = z.string().meta({ format: 'date-time', description: 'ISO 8601 timestamp (UTC).' });
const uuid = z.string().meta({ format: 'uuid' });

export const accountSchema = z
  .object({
    id: uuid,
    name: z.string(),
    created_at: timestamp,
  })
  .meta({ id: 'Account' });

export const userSchema = z
  .object({
    id: uuid,
    email: z.string().describe('Unique within the account, compared case-insensitively.'),
    name: z.string(),
    role: z.enum(['owner', 'admin', 'member']).describe('owner and admin manage users and agent keys; member uses the workspace.'),
    created_at: timestamp,
  })
  .meta({ id: 'User' });

export const agentKeySchema = z
  .object({
    id: uuid,
    name: z.string(),
    permissions: z
      .array(z.string())
      .describe('What the key may do; routes that need a permission the key lacks answer 403 `missing_permission`.'),
    read_only: z.boolean().describe('A read-only key may only call GET routes (403 `read_only_key` otherwise).'),
    token_hint: z.string().describe('Last 4 characters of the token, to tell keys apart. The token itself is shown once, at creation.'),
    created_at: timestamp,
    last_used_at: timestamp.nullable().describe('Last successful authentication, updated at most once a minute; null before first use.'),
    revoked_at: timestamp.nullable().describe('When the key was revoked; a revoked key answers 401 at once. Null while active.'),
  })
  .meta({ id: 'AgentKey' });

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toAccount(row: AccountRow) {
  return { id: row.id, name: row.name, created_at: row.created_at.toISOString() };
}

export function toUser(row: UserRow) {
  return { id: row.id, email: row.email, name: row.name, role: row.role, created_at: row.created_at.toISOString() };
}

export function toAgentKey(row: AgentKeyRow) {
  return {
    id: row.id,
    name: row.name,
    permissions: row.permissions,
    read_only: row.read_only,
    token_hint: row.token_hint,
    created_at: row.created_at.toISOString(),
    last_used_at: iso(row.last_used_at),
    revoked_at: iso(row.revoked_at),
  };
}
