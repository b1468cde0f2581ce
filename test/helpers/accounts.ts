import { randomBytes } from 'node:crypto';
import { createAccount, createAgentKey, createUser } from '../../src/auth/service';
import type { Permission } from '../../src/auth/permissions';
import type { Role } from '../../src/auth/types';
import { harness } from './harness';

export interface TestAccount {
  accountId: string;
  ownerId: string;
  ownerToken: string;
  agentKey: string;
}

/** A fresh account per test keeps tests independent without truncating tables. */
export async function newAccount(name = 'Test Co'): Promise<TestAccount> {
  const { deps } = harness();
  const created = await createAccount(deps.db, deps.secretHashKey, {
    name,
    ownerEmail: `owner-${randomBytes(4).toString('hex')}@example.test`,
    ownerName: 'Owner',
  });
  return { accountId: created.account.id, ownerId: created.owner.id, ownerToken: created.ownerToken, agentKey: created.agentKey };
}

export async function newUser(accountId: string, role: Role = 'member') {
  const { deps } = harness();
  const { user, sessionToken } = await createUser(deps.db, deps.secretHashKey, accountId, {
    email: `${role}-${randomBytes(4).toString('hex')}@example.test`,
    name: `A ${role}`,
    role,
  });
  return { userId: user.id, token: sessionToken };
}

export async function newAgentKey(accountId: string, permissions: Permission[], readOnly = false): Promise<string> {
  const { deps } = harness();
  return (await createAgentKey(deps.db, deps.secretHashKey, accountId, { name: 'test key', permissions, readOnly })).token;
}
