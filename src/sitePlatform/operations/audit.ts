import type { Knex } from '../../db/knex';

/** One row per successful write, named platform.<action>. */
export async function auditWrite(db: Knex, accountId: string, action: string, actor: string, target: string | null): Promise<void> {
  await db('site_platform_audit').insert({ account_id: accountId, action: `platform.${action}`, actor, target });
}
