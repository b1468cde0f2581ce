import type { Client } from '@temporalio/client';
import type { Knex } from '../db/knex';
import { markerKey, settleMarker } from '../temporal/deploymentMarker';
import { readDeploymentId } from '../temporal/deploymentStore';
import { temporalErrorText } from '../temporal/errorText';
import { SETUP_COMMAND } from '../temporal/namespaceCheck';
import { CliError } from './errors';

export interface MarkerTarget {
  client: Client;
  address: string;
  namespace: string;
  taskQueue: string;
}

/** This database's deployment id, or a CliError saying to migrate. */
export async function deploymentIdOf(db: Knex): Promise<string> {
  const id = await readDeploymentId(db);
  if (!id) throw new CliError('DATABASE_URL: the database has no deployment id yet; run `npm run cli -- migrate` first');
  return id;
}

/** The refusal when another deployment owns the queue: both ids and the ways out. */
export function otherDeploymentError(t: Omit<MarkerTarget, 'client'>, owner: string, ours: string, fix: string): CliError {
  return new CliError(
    `TEMPORAL_TASK_QUEUE: task queue "${t.taskQueue}" of namespace "${t.namespace}" on ${t.address} belongs to deployment ${owner} ` +
      `(namespace data ${markerKey(t.taskQueue)}), but this database is deployment ${ours}: its workers would run this ` +
      `deployment's jobs against their own database. ${fix}`,
  );
}

/**
 * At the start of a worker or an API: the namespace's marker for the task queue must name this database's deployment.
 * Absent, it is claimed (and `log` says so); another deployment's id stops the start. With the dev server the
 * namespace belongs to this process alone, so its marker is simply set.
 */
export async function checkDeploymentMarker(t: MarkerTarget, db: Knex, devServer: boolean, log: (msg: string) => void): Promise<void> {
  const ours = await deploymentIdOf(db);
  const outcome = await settleMarker(t.client, t.namespace, t.taskQueue, ours, devServer).catch((err: unknown) => {
    throw new CliError(
      `TEMPORAL_NAMESPACE: cannot read or record the deployment marker on namespace "${t.namespace}" at ${t.address}: ` +
        `${temporalErrorText(err)}. Run \`${SETUP_COMMAND}\` with a credential that may update the namespace.`,
    );
  });
  if (outcome.kind === 'other')
    throw otherDeploymentError(
      t,
      outcome.owner,
      ours,
      'Give this deployment its own TEMPORAL_TASK_QUEUE or TEMPORAL_NAMESPACE, or, when the other deployment is gone for good, ' +
        `run \`${SETUP_COMMAND} --claim\` with this DATABASE_URL.`,
    );
  if (outcome.kind === 'claimed' && !devServer)
    log(`task queue "${t.taskQueue}" of namespace "${t.namespace}" had no deployment marker: claimed it for deployment ${ours}`);
}

/**
 * `temporal setup`: records this database's deployment as the task queue's owner and answers the line to print.
 * Another owner stops it unless `claim` (its deployment is gone), which takes the queue over.
 */
export async function recordDeploymentMarker(t: MarkerTarget, ours: string, claim: boolean): Promise<string> {
  const key = markerKey(t.taskQueue);
  const outcome = await settleMarker(t.client, t.namespace, t.taskQueue, ours, claim);
  switch (outcome.kind) {
    case 'claimed':
      return `deployment marker ${key}: recorded deployment ${ours} (this database)`;
    case 'ours':
      return `deployment marker ${key}: deployment ${ours} (this database), already recorded`;
    case 'taken':
      return `deployment marker ${key}: deployment ${ours} (this database) took the task queue over from deployment ${outcome.previous}`;
    case 'other':
      throw otherDeploymentError(
        t,
        outcome.owner,
        ours,
        'Give this deployment its own TEMPORAL_TASK_QUEUE or TEMPORAL_NAMESPACE, or, when the other deployment is gone for good, ' +
          'run this command again with --claim.',
      );
  }
}
