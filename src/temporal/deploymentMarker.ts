import type { Client } from '@temporalio/client';

/**
 * Which deployment (database) owns a task queue of a namespace: a key of the namespace's `data`, one per task queue,
 * whose value is the owner's deployment id. Two deployments sharing a namespace and a task queue would run each
 * other's jobs against the wrong database; the marker lets the second one notice and refuse.
 */
export const markerKey = (taskQueue: string) => `workyard.deployment.${taskQueue}`;

export async function readMarker(client: Client, namespace: string, taskQueue: string): Promise<string | undefined> {
  const { namespaceInfo } = await client.workflowService.describeNamespace({ namespace });
  return namespaceInfo?.data?.[markerKey(taskQueue)] || undefined;
}

/** Sets the marker; the namespace's other data keys and settings are left as they are (Temporal merges `data`). */
export async function writeMarker(client: Client, namespace: string, taskQueue: string, deploymentId: string): Promise<void> {
  await client.workflowService.updateNamespace({ namespace, updateInfo: { data: { [markerKey(taskQueue)]: deploymentId } } });
}

export type MarkerOutcome =
  /** No marker was there: this deployment's id is now. */
  | { kind: 'claimed' }
  /** The marker already names this deployment. */
  | { kind: 'ours' }
  /** Another deployment owns the queue (or claimed it in the same moment). */
  | { kind: 'other'; owner: string }
  /** `take`: the marker named another deployment and now names this one. */
  | { kind: 'taken'; previous: string };

/**
 * Compares the marker with `deploymentId`: absent, it is claimed (and read back, so of two deployments claiming at
 * once the one that lost sees the winner); another id is left alone unless `take`.
 */
export async function settleMarker(
  client: Client,
  namespace: string,
  taskQueue: string,
  deploymentId: string,
  take = false,
): Promise<MarkerOutcome> {
  const current = await readMarker(client, namespace, taskQueue);
  if (current === deploymentId) return { kind: 'ours' };
  if (current && !take) return { kind: 'other', owner: current };
  await writeMarker(client, namespace, taskQueue, deploymentId);
  const after = await readMarker(client, namespace, taskQueue);
  if (after !== deploymentId) return { kind: 'other', owner: after ?? '(none)' };
  return current ? { kind: 'taken', previous: current } : { kind: 'claimed' };
}
