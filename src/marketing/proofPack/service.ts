import type { AppDeps } from '../../deps';
import { createChatClient } from '../../clients/providers/chatCompletions';
import { fits, MAX_ENTRY_CHARS } from './clip';
import { entryOf } from './entry';
import { addKnownPeople } from './knownPeople';
import { paraphraseAll } from './paraphrase';
import { readSource } from './readSource';
import { packScope, type PackFilter } from './scope';
import { takeRoundRobin } from './select';
import { SOURCES } from './sourceList';
import type { ProofPack, RawProof } from './types';

export type { PackFilter } from './scope';
export type { ProofEntry, ProofKind, ProofPack } from './types';

type PackDeps = Pick<AppDeps, 'db' | 'config' | 'logger'>;

/** A verbatim quote cut short is no longer verbatim: over-long consented quotes are left out, with a note. */
function withoutOverlongQuotes(proofs: RawProof[], notes: string[]): RawProof[] {
  const kept = proofs.filter((p) => !p.consent || fits(p.text));
  const dropped = proofs.length - kept.length;
  if (dropped > 0)
    notes.push(`${dropped} verbatim quote(s) over ${MAX_ENTRY_CHARS} characters left out: a cut quote is no longer verbatim.`);
  return kept;
}

/**
 * The account's proof for a writer: every source asked for is read in its own bounded transaction (an unreadable one
 * is `ok: false` with a note), at most `limit` entries are taken one kind at a time, consent-false ones are
 * paraphrased without names, and each entry carries its citation marker and definition.
 */
export async function proofPack(
  deps: PackDeps,
  accountId: string,
  filter: PackFilter,
  where: 'query' | 'body' = 'query',
): Promise<ProofPack> {
  const scope = await packScope(deps.db, accountId, filter, where);
  const asked = SOURCES.filter((s) => s.gives.some((k) => scope.kinds.includes(k)));
  const timeout = deps.config.PROOF_PACK_SOURCE_TIMEOUT_MS;
  const outcomes = await Promise.all(
    asked.map((s) => readSource(deps.db, deps.logger, s.kind, timeout, (trx) => s.read(trx, accountId, scope))),
  );
  const notes = outcomes.flatMap((o) => (o.note ? [o.note] : []));
  if (scope.kinds.includes('knowledge') && !scope.q) notes.push('knowledge_bases: not searched: send q or content_id.');
  const quotable = withoutOverlongQuotes(
    outcomes.flatMap((o) => o.rows),
    notes,
  );
  const chosen = takeRoundRobin(quotable, scope.limit);
  const internal = chosen.filter((p) => !p.consent);
  await addKnownPeople(deps.db, accountId, internal, timeout).catch((err) => {
    deps.logger.warn({ err }, 'proof pack contact-name lookup failed');
    notes.push("Contact names in internal texts could not be looked up; only each source's own person was stripped.");
  });
  const paraphrased = await paraphraseAll(createChatClient(deps.config), internal);
  notes.push(...paraphrased.notes);
  if (internal.length > 0)
    notes.push(`Consent-false entries paraphrased by ${paraphrased.writer === 'model' ? 'the model' : 'name stripping'}.`);
  const textOf = new Map(internal.map((p, i) => [p, paraphrased.texts[i]]));
  return {
    data: chosen.map((p) => entryOf(p, textOf.get(p) ?? p.text)),
    sources: outcomes.map((o) => o.report),
    notes,
  };
}
