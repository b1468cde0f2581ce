import { createHash } from 'node:crypto';
import { jsonNestsDeeperThan } from '../../http/jsonDepth';
import { unstorablePathOf } from '../../http/validate';
import { submissionIdOf } from '../../forms/submissionId';

/** doc2 Events "Registered triggers (11)". */
export const SITE_TRIGGERS = [
  'site_publish',
  'collection_item_created',
  'collection_item_changed',
  'collection_item_deleted',
  'collection_item_published',
  'collection_item_unpublished',
  'page_created',
  'page_deleted',
  'page_metadata_updated',
  'form_submission',
  'comment_created',
] as const;
export type SiteTrigger = (typeof SITE_TRIGGERS)[number];
const TRIGGERS = new Set<string>(SITE_TRIGGERS);

/** A delivery's envelope `{"triggerType": …, "payload": {…}}` once it is known to be usable. */
export interface Envelope {
  triggerType: SiteTrigger;
  payload: Record<string, unknown>;
  /** `payload.siteId`: the site the delivery is about. */
  siteId: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The envelope of a verified body, or undefined when it is unusable (receiver step 5, answered 200 ignored): not JSON,
 * nested deeper than MAX_JSON_DEPTH, not an object with a registered `triggerType` and an object `payload` naming a
 * `siteId`, or holding a string Postgres cannot store (U+0000, a lone surrogate: the platform would resend the same
 * bytes forever).
 */
export function parseEnvelope(rawBody: Buffer): Envelope | undefined {
  if (jsonNestsDeeperThan(rawBody)) return undefined;
  const text = rawBody.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || typeof parsed.triggerType !== 'string' || !TRIGGERS.has(parsed.triggerType)) return undefined;
  const payload = parsed.payload;
  if (!isObject(payload) || typeof payload.siteId !== 'string' || payload.siteId === '') return undefined;
  if (text.includes('\\u') && unstorablePathOf(payload)) return undefined;
  return { triggerType: parsed.triggerType as SiteTrigger, payload, siteId: payload.siteId };
}

/**
 * The event id, unique per (account, site): a form submission's submission id (forms/submissionId.ts), else — and for a
 * submission with none, which the ledger reports as permanent — the hex SHA-256 of `<triggerType>:<rawBody>` (a
 * platform redelivery resends the same body, so it is a replay).
 */
export function eventIdOf(envelope: Envelope, rawBody: Buffer): string {
  if (envelope.triggerType === 'form_submission') {
    const id = submissionIdOf(envelope.payload);
    if (id !== undefined) return id;
  }
  return createHash('sha256').update(`${envelope.triggerType}:`, 'utf8').update(rawBody).digest('hex');
}

/** The collection a collection_item_* payload names, if any. */
export function collectionIdOf(payload: Record<string, unknown>): string | undefined {
  return typeof payload.collectionId === 'string' && payload.collectionId !== '' ? payload.collectionId : undefined;
}
