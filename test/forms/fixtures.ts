import { randomBytes, randomUUID } from 'node:crypto';
import { recordPlatformSubmission, type PlatformSubmissionInput } from '../../src/forms/service';
import { harness } from '../helpers/harness';

/** A `form_submission` delivery payload as the platform sends it (SDK FormSubmissionTriggerPayload), with a fresh id. */
export function deliveryPayload(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Contact us',
    siteId: 'site_forms',
    data: { Name: 'Ada Lovelace', Email: `ada-${randomBytes(3).toString('hex')}@example.test`, Message: 'Hello' },
    schema: [],
    submittedAt: new Date().toISOString(),
    id: randomBytes(12).toString('hex'),
    formId: randomBytes(12).toString('hex'),
    formElementId: randomUUID(),
    ...extra,
  };
}

export const record = (accountId: string, payload: Record<string, unknown>, extra: Partial<PlatformSubmissionInput> = {}) =>
  recordPlatformSubmission(harness().db, accountId, {
    connectionId: randomUUID(),
    siteId: 'site_forms',
    eventId: typeof payload.id === 'string' ? payload.id : undefined,
    payload,
    historical: false,
    ...extra,
  });

export async function ledgerRows(accountId: string) {
  return harness().db('form_submissions').where({ account_id: accountId }).orderBy('created_at');
}

export async function formTriggers(accountId: string) {
  return harness().db('workflow_trigger_outbox').where({ account_id: accountId, trigger: 'form_submitted' });
}

export async function notifications(accountId: string) {
  return harness().db('inbox_items').where({ account_id: accountId, kind: 'form_submission_received' });
}
