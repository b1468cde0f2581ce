import { createAccount, findFirstAccount } from '../auth/service';
import type { Knex } from '../db/knex';

export const FIRST_ACCOUNT = { name: 'Workyard', ownerEmail: 'owner@localhost', ownerName: 'Owner' } as const;

export type FirstAccount =
  | { created: false; account: { id: string; name: string } | undefined }
  | { created: true; account: { id: string; name: string }; ownerEmail: string; ownerToken: string; agentKey: string };

/**
 * On a database with no account yet, creates one with its owner, an owner session and an all-permission agent key,
 * so that a first `npm start` is usable at once. Never in production, where the credentials would land in the logs.
 */
export async function ensureFirstAccount(db: Knex, hashKey: string, create: boolean): Promise<FirstAccount> {
  const existing = await findFirstAccount(db);
  if (existing || !create) return { created: false, account: existing };
  const created = await createAccount(db, hashKey, FIRST_ACCOUNT);
  return {
    created: true,
    account: { id: created.account.id, name: created.account.name },
    ownerEmail: FIRST_ACCOUNT.ownerEmail,
    ownerToken: created.ownerToken,
    agentKey: created.agentKey,
  };
}
