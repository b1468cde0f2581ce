import type { Knex } from '../../db/knex';
import type { Environment } from './environments';

export type { Environment } from './environments';

export interface DeploymentRow {
  id: string;
  account_id: string;
  project_id: string;
  environment: Environment;
  base_url: string;
  secret_enc: string;
  secret_hint: string;
  last_revalidation_outcome: string | null;
  last_revalidation_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const deployments = (db: Knex, accountId: string) => db<DeploymentRow>('project_deployments').where({ account_id: accountId });

const ENVIRONMENT_ORDER = `case environment when 'production' then 0 when 'staging' then 1 else 2 end`;

export async function listDeployments(db: Knex, accountId: string, projectId: string): Promise<DeploymentRow[]> {
  return deployments(db, accountId).where({ project_id: projectId }).orderByRaw(ENVIRONMENT_ORDER);
}

export async function findDeployment(
  db: Knex,
  accountId: string,
  projectId: string,
  deploymentId: string,
): Promise<DeploymentRow | undefined> {
  return deployments(db, accountId).where({ project_id: projectId, id: deploymentId }).first();
}

export interface NewDeployment {
  environment: Environment;
  base_url: string;
  secret_enc: string;
  secret_hint: string;
}

export async function insertDeployment(db: Knex, accountId: string, projectId: string, fields: NewDeployment): Promise<DeploymentRow> {
  const [row] = await db<DeploymentRow>('project_deployments')
    .insert({ account_id: accountId, project_id: projectId, ...fields })
    .returning('*');
  return row;
}

export async function updateDeployment(
  db: Knex,
  accountId: string,
  projectId: string,
  deploymentId: string,
  fields: Partial<Pick<DeploymentRow, 'base_url' | 'secret_enc' | 'secret_hint'>>,
): Promise<DeploymentRow | undefined> {
  const [row] = await deployments(db, accountId)
    .where({ project_id: projectId, id: deploymentId })
    .update({ ...fields, updated_at: db.fn.now() } as never)
    .returning('*');
  return row;
}

export async function deleteDeployment(db: Knex, accountId: string, projectId: string, deploymentId: string): Promise<boolean> {
  return (await deployments(db, accountId).where({ project_id: projectId, id: deploymentId }).delete()) > 0;
}

/** Every deployment of the account's service-hosted projects: the candidates of a catalogue revalidation. */
export async function serviceHostedDeployments(db: Knex, accountId: string): Promise<DeploymentRow[]> {
  return db<DeploymentRow>('project_deployments as d')
    .join('projects as p', (j) => j.on('p.account_id', 'd.account_id').andOn('p.id', 'd.project_id'))
    .where({ 'd.account_id': accountId, 'p.kind': 'service_hosted' })
    .orderBy([{ column: 'd.project_id' }, { column: 'd.environment' }])
    .select('d.*');
}

export async function recordRevalidation(db: Knex, accountId: string, deploymentId: string, outcome: string): Promise<void> {
  await deployments(db, accountId)
    .where({ id: deploymentId })
    .update({ last_revalidation_outcome: outcome, last_revalidation_at: db.fn.now() } as never);
}
