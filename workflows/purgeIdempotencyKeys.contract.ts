import { defineWorkflow } from './defineWorkflow';

/** The contract of the `idempotency-key-purge` sweep (purgeIdempotencyKeys.ts). No I/O. */

export interface PurgeIdempotencyKeysResult {
  deleted: number;
}

export const purgeIdempotencyKeysContract = defineWorkflow<[], PurgeIdempotencyKeysResult>('purgeIdempotencyKeys', 'idempotency-key-purge');
