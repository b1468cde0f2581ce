import type { Knex } from '../db/knex';

/** Settles once the caller's outermost transaction has ended: true when it committed. */
export function committed(trx: Knex.Transaction): Promise<boolean> {
  let outer = trx;
  while (outer.parentTransaction) outer = outer.parentTransaction;
  return outer.executionPromise.then(
    () => true,
    () => false,
  );
}
