import type { Knex } from '../../db/knex';
import { contactNamesAmong, setStatementTimeout } from './store';
import type { RawProof } from './types';

/** Runs of two or three capitalised words: the shapes a contact's name takes in free text. */
const CAPITALISED_RUN = /\p{Lu}[\p{Ll}'’-]+(?:\s+\p{Lu}[\p{Ll}'’-]+){1,2}/gu;
const MAX_CANDIDATES = 2_000;

function candidatesOf(text: string): string[] {
  const found: string[] = [];
  for (const [run] of text.matchAll(CAPITALISED_RUN)) {
    const words = run.split(/\s+/);
    for (let i = 0; i < words.length - 1; i += 1) {
      found.push(`${words[i]} ${words[i + 1]}`.toLowerCase());
      if (i + 2 < words.length) found.push(`${words[i]} ${words[i + 1]} ${words[i + 2]}`.toLowerCase());
    }
  }
  return found;
}

/**
 * Adds to each proof's `names` the account's CRM contacts its text names (a knowledge passage or a ticket can mention
 * people other than its own contact), so name stripping and the paraphrase check know them too. One indexed lookup
 * of the capitalised word runs against contact names, bounded like a source read.
 */
export async function addKnownPeople(db: Knex, accountId: string, proofs: RawProof[], timeoutMs: number): Promise<void> {
  const candidates = [...new Set(proofs.flatMap((p) => candidatesOf(p.text)))].slice(0, MAX_CANDIDATES);
  if (candidates.length === 0) return;
  const names = await db.transaction(async (trx) => {
    await setStatementTimeout(trx, timeoutMs);
    return contactNamesAmong(trx, accountId, candidates);
  });
  for (const proof of proofs) {
    const mine = candidatesOf(proof.text);
    proof.names.push(...names.filter((n) => mine.includes(n.toLowerCase())));
  }
}
