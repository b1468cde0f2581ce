import type { Knex } from '../../db/knex';
import { isUuid } from '../../http/ids';
import * as store from './store';

export type OutcomeState = 'complained' | 'bounced' | 'delivered' | 'delivery_delayed';

export interface MessageOutcomes {
  /**
   * The email's state: its most telling outcome over all recipients (complained > bounced > delivered >
   * delivery_delayed), else its send status (`sent`, `failed`, `queued`, `scheduled`, `simulated`…).
   */
  state: OutcomeState | string;
  /** `email.sent` (from the send) then every outcome per recipient, oldest first. */
  events: Array<{ type: string; recipient: string | null; at: string; detail: Record<string, unknown> }>;
  last_event: string | null;
  sent_at: string | null;
  delivered_at: string | null;
  bounced_at: string | null;
  complained_at: string | null;
  delayed_at: string | null;
}

const PRECEDENCE: Array<[keyof store.OutcomeTimes, OutcomeState]> = [
  ['complained_at', 'complained'],
  ['bounced_at', 'bounced'],
  ['delivered_at', 'delivered'],
  ['delayed_at', 'delivery_delayed'],
];

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** The outcomes of an email of the account (null when it has no such email), for `GET /v1/email/emails/{id}`. */
export async function messageOutcomes(db: Knex, accountId: string, messageId: string): Promise<MessageOutcomes | null> {
  if (!isUuid(messageId)) return null;
  const row = await store.outcomeTimes(db, accountId, messageId);
  if (!row) return null;
  const outcomes = await store.outcomeRows(db, accountId, messageId);
  const sent = row.sent_at ? [{ type: 'email.sent', recipient: null, at: row.sent_at.toISOString(), detail: {} }] : [];
  const state = PRECEDENCE.find(([column]) => row[column])?.[1] ?? row.status;
  return {
    state,
    events: [
      ...sent,
      ...outcomes.map((o) => ({ type: o.type, recipient: o.recipient, at: o.occurred_at.toISOString(), detail: o.detail })),
    ],
    last_event: row.last_event,
    sent_at: iso(row.sent_at),
    delivered_at: iso(row.delivered_at),
    bounced_at: iso(row.bounced_at),
    complained_at: iso(row.complained_at),
    delayed_at: iso(row.delayed_at),
  };
}
