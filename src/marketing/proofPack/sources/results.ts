import type { Knex } from '../../../db/knex';
import { selectResults } from '../store';
import type { PackScope, RawProof } from '../types';

/** numeric(20,4) as recorded, without the padding Postgres adds: "12.5000" → "12.5", "3.0000" → "3". */
export function recordedNumber(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}

const withUnit = (value: string, unit: string | null) => (unit ? `${recordedNumber(value)} ${unit}` : recordedNumber(value));

/** Measured before/after results, stated with the numbers as recorded and the grid as attribution. */
export async function readResults(trx: Knex.Transaction, accountId: string, scope: PackScope): Promise<RawProof[]> {
  const rows = await selectResults(trx, accountId, scope);
  return rows.map((row) => ({
    kind: 'result',
    consent: true,
    text: `${row.metric}: from ${withUnit(row.before_value, row.unit)} to ${withUnit(row.after_value, row.unit)}`,
    attribution: `Before/after grid “${row.grid_name}”`,
    sourceType: 'before_after_result',
    sourceId: row.id,
    citationId: `result:${row.id}`,
    describes: `Before/after grid “${row.grid_name}”: measured result “${row.metric}”`,
    names: [],
  }));
}
