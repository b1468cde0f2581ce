import type { Client } from '@temporalio/client';
import type { Knex } from '../db/knex';
import { countFingerprints, queueWorkers } from './taskQueueWorkers';
import { differingProviders, type ProviderSettings } from './workerFingerprint';
import { readFingerprints } from './workerFingerprintStore';

export interface QueueFingerprint {
  /** null: workers that advertise no fingerprint. */
  fingerprint: string | null;
  workers: number;
  /** The settings it stands for, when a worker of this database recorded them. */
  providers?: ProviderSettings;
}

/** The provider-settings fingerprints of the workers polling a task queue, most workers first. */
export async function readQueueFingerprints(client: Client, namespace: string, taskQueue: string, db: Knex): Promise<QueueFingerprint[]> {
  const counts = countFingerprints(await queueWorkers(client, namespace, taskQueue));
  const known = await readFingerprints(
    db,
    counts.map((c) => c.fingerprint).filter((f): f is string => f !== null),
  );
  return counts.map((c) => ({ ...c, providers: c.fingerprint ? known.get(c.fingerprint) : undefined }));
}

/** The providers whose settings differ among the fingerprints whose settings are known. */
export function providersThatDiffer(fingerprints: QueueFingerprint[]): string[] {
  const known = fingerprints.flatMap((f) => (f.providers ? [f.providers] : []));
  const names = new Set<string>();
  for (const other of known.slice(1)) for (const name of differingProviders(known[0], other)) names.add(name);
  return [...names].sort();
}
