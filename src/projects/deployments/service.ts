import type { Config } from '../../config';
import type { Knex } from '../../db/knex';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors';
import { ApiError } from '../../http/errors';
import { invalidField } from '../../http/fieldErrors';
import { isUuid } from '../../http/ids';
import { projectNotFound, requireOwnProject, type ProjectRow } from '../service';
import { checkBaseUrl } from './baseUrl';
import { postRevalidation, type RevalidationOutcome } from './revalidate';
import { newRevalidationSecret, openRevalidationSecret, sealRevalidationSecret, secretHint } from './secret';
import * as store from './store';
import type { DeploymentRow, Environment } from './store';

export type { DeploymentRow, Environment } from './store';

/** What the deployment rules need; the API's AppDeps and the worker's ActivityDeps both are one. */
export interface DeploymentDeps {
  db: Knex;
  config: Pick<Config, 'SECRET_HASH_KEY' | 'FETCH_ALLOW_PRIVATE_HOSTS' | 'NODE_ENV'>;
}

export const deploymentNotFound = () => new ApiError(404, 'deployment_not_found', 'no deployment with this id in this project');
export const projectNotServiceHosted = () =>
  new ApiError(409, 'project_not_service_hosted', 'only a service_hosted project has deployments (the site platform hosts this one)');
export const environmentTaken = () =>
  new ApiError(409, 'deployment_environment_taken', 'the project already has a deployment in this environment');

/** The account's project when it is service-hosted: 404 `project_not_found` otherwise, 409 for a platform-hosted one. */
export async function requireServiceHostedProject(db: Knex, accountId: string, projectId: string): Promise<ProjectRow> {
  const project = await requireOwnProject(db, accountId, projectId);
  if (project.kind !== 'service_hosted') throw projectNotServiceHosted();
  return project;
}

function hashKey(deps: DeploymentDeps): string {
  if (!deps.config.SECRET_HASH_KEY) throw new ApiError(500, 'internal', 'SECRET_HASH_KEY is not resolved');
  return deps.config.SECRET_HASH_KEY;
}

/** A new revalidation secret (answered once) and the sealed form and hint the deployment row stores. */
function mintSecret(deps: DeploymentDeps): { secret: string; stored: { secret_enc: string; secret_hint: string } } {
  const secret = newRevalidationSecret();
  return { secret, stored: { secret_enc: sealRevalidationSecret(hashKey(deps), secret), secret_hint: secretHint(secret) } };
}

function normalisedBaseUrl(deps: DeploymentDeps, raw: string): string {
  const checked = checkBaseUrl(raw, deps.config);
  if ('problem' in checked) throw invalidField('body.base_url', checked.problem);
  return checked.url;
}

export async function listProjectDeployments(db: Knex, accountId: string, projectId: string): Promise<DeploymentRow[]> {
  await requireServiceHostedProject(db, accountId, projectId);
  return store.listDeployments(db, accountId, projectId);
}

export async function getDeployment(db: Knex, accountId: string, projectId: string, deploymentId: string): Promise<DeploymentRow> {
  await requireServiceHostedProject(db, accountId, projectId);
  const row = isUuid(deploymentId) ? await store.findDeployment(db, accountId, projectId, deploymentId) : undefined;
  if (!row) throw deploymentNotFound();
  return row;
}

/** A new deployment with its revalidation secret, which is answered here once and stored only sealed. */
export async function createDeployment(
  deps: DeploymentDeps,
  accountId: string,
  projectId: string,
  input: { environment: Environment; base_url: string },
): Promise<{ deployment: DeploymentRow; secret: string }> {
  await requireServiceHostedProject(deps.db, accountId, projectId);
  const baseUrl = normalisedBaseUrl(deps, input.base_url);
  const { secret, stored } = mintSecret(deps);
  try {
    const deployment = await store.insertDeployment(deps.db, accountId, projectId, {
      environment: input.environment,
      base_url: baseUrl,
      ...stored,
    });
    return { deployment, secret };
  } catch (err) {
    if (isUniqueViolation(err, 'project_deployments_environment')) throw environmentTaken();
    // The project was deleted between the check and the insert.
    if (isForeignKeyViolation(err, 'project_deployments_project')) throw projectNotFound();
    throw err;
  }
}

export async function updateDeploymentBaseUrl(
  deps: DeploymentDeps,
  accountId: string,
  projectId: string,
  deploymentId: string,
  rawBaseUrl: string,
): Promise<DeploymentRow> {
  await getDeployment(deps.db, accountId, projectId, deploymentId);
  const row = await store.updateDeployment(deps.db, accountId, projectId, deploymentId, { base_url: normalisedBaseUrl(deps, rawBaseUrl) });
  if (!row) throw deploymentNotFound();
  return row;
}

/** A new secret replaces the old one at once (answered once); the site must be given it before the next post verifies. */
export async function rotateDeploymentSecret(
  deps: DeploymentDeps,
  accountId: string,
  projectId: string,
  deploymentId: string,
): Promise<{ deployment: DeploymentRow; secret: string }> {
  await getDeployment(deps.db, accountId, projectId, deploymentId);
  const { secret, stored } = mintSecret(deps);
  const deployment = await store.updateDeployment(deps.db, accountId, projectId, deploymentId, stored);
  if (!deployment) throw deploymentNotFound();
  return { deployment, secret };
}

export async function deleteDeployment(db: Knex, accountId: string, projectId: string, deploymentId: string): Promise<void> {
  await getDeployment(db, accountId, projectId, deploymentId);
  if (!(await store.deleteDeployment(db, accountId, projectId, deploymentId))) throw deploymentNotFound();
}

/** Every deployment of the account's service-hosted projects (the catalogue picks those bound to its shop). */
export async function serviceHostedDeployments(db: Knex, accountId: string): Promise<DeploymentRow[]> {
  return store.serviceHostedDeployments(db, accountId);
}

/**
 * Posts the cache tags to one deployment (signed with its secret) and keeps the outcome on the deployment. Never
 * throws for the site's sake: `secret_unreadable` when SECRET_HASH_KEY changed since the secret was sealed.
 */
export async function revalidateDeployment(
  deps: DeploymentDeps,
  deployment: DeploymentRow,
  tags: string[],
  timeoutMs?: number,
): Promise<RevalidationOutcome | 'secret_unreadable'> {
  let secret: string;
  try {
    secret = openRevalidationSecret(hashKey(deps), deployment.secret_enc);
  } catch {
    await store.recordRevalidation(deps.db, deployment.account_id, deployment.id, 'secret_unreadable');
    return 'secret_unreadable';
  }
  const outcome = await postRevalidation(deployment.base_url, secret, tags, { policy: deps.config, timeoutMs });
  await store.recordRevalidation(deps.db, deployment.account_id, deployment.id, outcome);
  return outcome;
}
