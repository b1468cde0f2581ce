import type { Client } from '@temporalio/client';
import type { Knex } from '../db/knex';
import type { Logger } from '../logger';
import { temporalErrorText } from '../temporal/errorText';
import { readQueueFingerprints } from '../temporal/queueFingerprints';
import type { WorkerFingerprint } from '../temporal/workerFingerprint';
import { fingerprintLine, peerWarning } from './banner';

/**
 * Once the worker polls: logs its provider fingerprint and, when other workers of its task queue carry another one,
 * a warning naming them. Answers both for the banner; a queue that cannot be described is logged, not fatal.
 */
export async function reportWorkerPeers(
  target: { client: Client; namespace: string; taskQueue: string },
  db: Knex,
  own: WorkerFingerprint,
  logger: Logger,
): Promise<{ line: string; warning?: string }> {
  const line = fingerprintLine(own);
  logger.info({ fingerprint: own.fingerprint, providers: own.providers, taskQueue: target.taskQueue }, `worker ${line}`);
  try {
    const peers = await readQueueFingerprints(target.client, target.namespace, target.taskQueue, db);
    const warning = peerWarning(own, target.taskQueue, peers);
    if (warning) logger.warn({ taskQueue: target.taskQueue, fingerprints: peers.map((p) => p.fingerprint) }, warning);
    return { line, warning };
  } catch (err) {
    logger.warn(
      { cause: temporalErrorText(err) },
      `could not compare this worker's provider settings with the other workers of "${target.taskQueue}"`,
    );
    return { line };
  }
}
