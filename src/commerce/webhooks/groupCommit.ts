import type { Knex } from '../../db/knex';
import { GroupCommitter } from '../../db/groupCommit';
import { insertDeliveries, type NewDelivery } from './store';

/** Most rows one group-commit statement inserts. */
export const GROUP_COMMIT_MAX_ROWS = 200;
/** Most payload bytes one statement carries (a batch closes early past it). */
export const GROUP_COMMIT_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Group commit of the receiver's durable write (src/db/groupCommit.ts): deliveries that arrive together are inserted
 * by ONE `insert … on conflict (connection_id, webhook_id) do nothing returning` statement, and each caller learns
 * whether its delivery was new or already recorded.
 */
export class GroupCommit extends GroupCommitter<NewDelivery> {
  constructor(db: Knex, onCommitted: (inserted: number) => void = () => undefined) {
    super(
      db,
      {
        insert: insertDeliveries,
        keyOf: (d) => `${d.connectionId}:${d.webhookId}`,
        bytesOf: (d) => d.payloadJson.length,
        maxRows: GROUP_COMMIT_MAX_ROWS,
        maxBytes: GROUP_COMMIT_MAX_BYTES,
      },
      onCommitted,
    );
  }
}
