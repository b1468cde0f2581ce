import type { Knex } from '../../db/knex';
import { readActivities } from './sources/activities';
import { readKnowledge } from './sources/knowledge';
import { readResults } from './sources/results';
import { readTestimonials } from './sources/testimonials';
import { ACTIVITY_KINDS, type PackScope, type ProofKind, type RawProof, type SourceReport } from './types';

interface Source {
  kind: SourceReport['kind'];
  /** The entry kinds it gives; it is read only when one of them is asked for. */
  gives: readonly ProofKind[];
  read: (trx: Knex.Transaction, accountId: string, scope: PackScope) => Promise<RawProof[]>;
}

export const SOURCES: Source[] = [
  { kind: 'testimonials', gives: ['testimonial'], read: readTestimonials },
  { kind: 'results', gives: ['result'], read: readResults },
  { kind: 'crm_activities', gives: ACTIVITY_KINDS, read: readActivities },
  { kind: 'knowledge_bases', gives: ['knowledge'], read: readKnowledge },
];
