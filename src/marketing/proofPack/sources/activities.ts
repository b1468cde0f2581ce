import type { Knex } from '../../../db/knex';
import { selectActivities, type ActivityRow } from '../store';
import { ACTIVITY_KINDS, type PackScope, type ProofKind, type RawProof } from '../types';

const VOICE_OF_CUSTOMER: Record<string, string> = {
  ticket: 'Support ticket',
  call: 'Call notes',
  survey: 'Survey answer',
  objection: 'Sales objection',
};

function proofOf(row: ActivityRow): RawProof {
  const kind = row.kind as ProofKind;
  const names = row.contact_name ? [row.contact_name] : [];
  if (kind === 'review') {
    return {
      kind,
      consent: true,
      text: row.body,
      attribution: row.contact_name,
      sourceType: 'crm_activity',
      sourceId: row.id,
      citationId: `review:${row.id}`,
      describes: `Public customer review${row.contact_name ? ` by ${row.contact_name}` : ''}`,
      names,
    };
  }
  return {
    kind,
    consent: false,
    text: row.body,
    attribution: null,
    sourceType: 'crm_activity',
    sourceId: row.id,
    citationId: `activity:${row.id}`,
    describes: `${VOICE_OF_CUSTOMER[kind]} from the CRM (internal, paraphrased, customer not named)`,
    names,
  };
}

/** CRM activities of the asked kinds with a body, newest first (tag rules in selectActivities). */
export async function readActivities(trx: Knex.Transaction, accountId: string, scope: PackScope): Promise<RawProof[]> {
  const kinds = ACTIVITY_KINDS.filter((k) => scope.kinds.includes(k));
  if (kinds.length === 0) return [];
  return (await selectActivities(trx, accountId, kinds, scope)).map(proofOf);
}
