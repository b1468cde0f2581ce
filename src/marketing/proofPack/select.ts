import { PROOF_KINDS, type RawProof } from './types';

/**
 * At most `limit` proofs, taken one per kind in turn (testimonial, result, review, ticket, call, survey, objection,
 * knowledge), each kind in its source's order, so a small limit still shows every kind that has proof.
 */
export function takeRoundRobin(proofs: RawProof[], limit: number): RawProof[] {
  const queues = PROOF_KINDS.map((kind) => proofs.filter((p) => p.kind === kind));
  const taken: RawProof[] = [];
  for (let round = 0; taken.length < limit && queues.some((q) => q.length > round); round += 1) {
    for (const queue of queues) {
      if (taken.length >= limit) break;
      if (queue[round]) taken.push(queue[round]);
    }
  }
  return taken;
}
