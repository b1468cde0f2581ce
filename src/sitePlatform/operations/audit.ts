import type { Knex } from '../../db/knex';
import { insertAudit } from './store';

/** One row per successful write, named platform.<action>. */
export async function auditWrite(db: Knex, accountId: string, action: string, actor: string, target: string | null): Promise<void> {
  await insertAudit(db, accountId, `platform.${action}`, actor, target);
}
