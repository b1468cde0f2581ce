import { citationDefinition, citationMarker } from '../seo/citations';
import type { ProofEntry, RawProof } from './types';

/** The entry a writer gets: `text` is verbatim for consent true, the paraphrase for consent false. */
export function entryOf(proof: RawProof, text: string): ProofEntry {
  return {
    text,
    consent: proof.consent,
    citation: citationMarker(proof.citationId),
    citation_definition: citationDefinition(proof.citationId, proof.describes),
    kind: proof.kind,
    attribution: proof.consent ? proof.attribution : null,
    source: { type: proof.sourceType, id: proof.sourceId },
  };
}
