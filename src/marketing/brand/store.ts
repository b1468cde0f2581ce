import type { Knex } from '../../db/knex';

export interface BrandColor {
  name: string | null;
  hex: string;
}

/** A brand_guides row: the account's guide (project_id null) or a project's own. */
export interface BrandGuideRow {
  id: string;
  account_id: string;
  project_id: string | null;
  voice: string | null;
  visual_style: string | null;
  colors: BrandColor[];
  avoid: string[];
  primary_logo_asset_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export type BrandGuideFields = Pick<BrandGuideRow, 'voice' | 'visual_style' | 'colors' | 'avoid' | 'primary_logo_asset_id'>;

export async function findGuide(db: Knex, accountId: string, projectId: string | null): Promise<BrandGuideRow | undefined> {
  const q = db('brand_guides').where({ account_id: accountId });
  return projectId === null ? q.whereNull('project_id').first() : q.where({ project_id: projectId }).first();
}

/** Inserts or replaces the guide of the scope (the unique index treats a null project_id as one scope). */
export async function upsertGuide(db: Knex, accountId: string, projectId: string | null, fields: BrandGuideFields): Promise<BrandGuideRow> {
  const values = { ...fields, colors: JSON.stringify(fields.colors), avoid: JSON.stringify(fields.avoid) };
  const [row] = await db('brand_guides')
    .insert({ account_id: accountId, project_id: projectId, ...values })
    .onConflict(['account_id', 'project_id'])
    .merge({ ...values, updated_at: db.fn.now() })
    .returning('*');
  return row;
}
