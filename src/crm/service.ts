/**
 * The CRM's surface for other areas (commerce order ingestion, form ledgers, marketing reports): import from
 * here, never from a store. Every function takes the database handle first (a transaction works) and the account.
 */
export {
  getContact,
  upsertContactByEmail,
  applyCommerceOrder,
  setCommerceRollup,
  normalizeTags,
  upsertContactsByEmail,
  setCommerceRollups,
  findContactsByIdsOrEmail,
  deleteContact,
} from './contactService';
export type { ContactRow, CommerceRollup } from './contactService';
export { addActivity, addActivities, redactActivities } from './activityService';
export type { ActivityInput, ActivityRow } from './activityService';
export { defaultPipeline, DEFAULT_STAGES } from './pipelineService';
export { getDeal, listDeals } from './dealService';
export type { DealView } from './dealService';
export { toContactJson } from './contactJson';
