import type { Knex } from '../db/knex';
import type { ProviderSettings } from './workerFingerprint';

/** Keeps the settings a fingerprint stands for; a fingerprint is a hash of its settings, so its row never changes. */
export async function recordFingerprint(db: Knex, fingerprint: string, providers: ProviderSettings): Promise<void> {
  await db('worker_fingerprints')
    .insert({ fingerprint, providers: JSON.stringify(providers) })
    .onConflict('fingerprint')
    .ignore();
}

/** The settings of those fingerprints this database knows. */
export async function readFingerprints(db: Knex, fingerprints: string[]): Promise<Map<string, ProviderSettings>> {
  if (!fingerprints.length) return new Map();
  const rows: { fingerprint: string; providers: ProviderSettings }[] = await db('worker_fingerprints')
    .whereIn('fingerprint', fingerprints)
    .select('fingerprint', 'providers');
  return new Map(rows.map((r) => [r.fingerprint, r.providers]));
}
