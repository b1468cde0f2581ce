import { createKnowledgeBase, indexDocument } from '../../../src/knowledge/service';
import { harness } from '../../helpers/harness';
import { call } from '../../helpers/http';

/** Proof an account holds, for the proof-pack tests: one grid, CRM activities of every kind, and a knowledge base. */
export interface SeededProof {
  gridId: string;
  consentedId: string;
  unconsentedId: string;
  resultId: string;
  contactId: string;
  reviewId: string;
  ticketId: string;
}

export const REVIEW = 'Workyard cut our invoicing from a full day to an hour. Highly recommended!';
export const CONSENTED_QUOTE = 'We finally see every job on one screen.';
export const TICKET =
  'Hi, this is Jane Doe. I could not export my timesheets again and I lost an hour. Call me on +1 555 123 4567 or jane.doe@roofco.test. Thanks, Jane';

const insert = async (table: string, row: Record<string, unknown>): Promise<string> =>
  (await harness().db(table).insert(row).returning('id'))[0].id;

export async function seedProof(accountId: string, gridName = 'Roof Co rollout'): Promise<SeededProof> {
  const gridId = await insert('before_after_grids', { account_id: accountId, name: gridName });
  const consentedId = await insert('before_after_testimonials', {
    account_id: accountId,
    grid_id: gridId,
    position: 0,
    quote: CONSENTED_QUOTE,
    attribution: 'Maria Lopez, Roof Co',
    consent: true,
  });
  const unconsentedId = await insert('before_after_testimonials', {
    account_id: accountId,
    grid_id: gridId,
    position: 1,
    quote: 'Honestly Tom Baker hated the old spreadsheets.',
    attribution: 'Tom Baker',
    consent: false,
  });
  const resultId = await insert('before_after_results', {
    account_id: accountId,
    grid_id: gridId,
    position: 0,
    metric: 'Hours on invoicing per week',
    before_value: 12.5,
    after_value: 3,
    unit: 'hours',
  });
  const contactId = await insert('crm_contacts', {
    account_id: accountId,
    name: 'Jane Doe',
    email: `jane.${gridId}@roofco.test`,
    company: 'Roof Co',
  });
  const activity = (kind: string, body: string) =>
    insert('crm_contact_activities', { account_id: accountId, contact_id: contactId, kind, body });
  const reviewId = await activity('review', REVIEW);
  const ticketId = await activity('ticket', TICKET);
  return { gridId, consentedId, unconsentedId, resultId, contactId, reviewId, ticketId };
}

export async function seedKnowledge(accountId: string, text: string): Promise<void> {
  const kb = await createKnowledgeBase(harness().db, accountId, { name: `Notes ${Math.random().toString(36).slice(2)}` });
  await indexDocument(harness().db, accountId, kb.id, { sourceUrl: null, title: 'Call notes', text });
}

export async function newItem(accountId: string, fields: Record<string, unknown> = {}): Promise<string> {
  return insert('content_items', { account_id: accountId, title: 'Invoicing for roofers', ...fields });
}

export const getPack = (token: string, query = '', agent = false) =>
  call('GET', `${agent ? '/api/agent' : '/api'}/marketing/content/proof-pack${query ? `?${query}` : ''}`, { token });

export const storePack = (token: string, id: string, body: unknown = {}, agent = false) =>
  call('POST', `${agent ? '/api/agent' : '/api'}/marketing/content/${id}/proof-pack`, { token, body });

/** Runs `fn` with the app pointed at a model (or none), then restores the config. */
export async function withConfig<T>(overrides: Record<string, unknown>, fn: () => Promise<T>): Promise<T> {
  const config = harness().deps.config as unknown as Record<string, unknown>;
  const saved = Object.fromEntries(Object.keys(overrides).map((k) => [k, config[k]]));
  Object.assign(config, overrides);
  try {
    return await fn();
  } finally {
    Object.assign(config, saved);
  }
}
