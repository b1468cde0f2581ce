import type { Knex } from '../../db/knex';
import type { Logger } from '../../logger';
import { setStatementTimeout } from './store';
import type { RawProof, SourceReport } from './types';

export interface SourceOutcome {
  report: SourceReport;
  rows: RawProof[];
  note?: string;
}

/**
 * Reads one source in its own transaction bounded by `statement_timeout`, so a locked table or a failing
 * query makes that source `ok: false` with a note while the other sources still answer.
 */
export async function readSource(
  db: Knex,
  logger: Logger,
  kind: SourceReport['kind'],
  timeoutMs: number,
  read: (trx: Knex.Transaction) => Promise<RawProof[]>,
): Promise<SourceOutcome> {
  try {
    const rows = await db.transaction(async (trx) => {
      await setStatementTimeout(trx, timeoutMs);
      return read(trx);
    });
    return { report: { kind, ok: true, count: rows.length }, rows };
  } catch (err) {
    logger.warn({ err, source: kind }, 'proof pack source unreadable');
    const why = (err as { code?: string }).code === '57014' ? `no answer within ${timeoutMs} ms` : 'the read failed';
    return { report: { kind, ok: false, count: 0 }, rows: [], note: `${kind}: unreadable (${why}); left out of this pack.` };
  }
}
