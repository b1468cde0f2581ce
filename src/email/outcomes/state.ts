import type { z } from 'zod';
import type { Knex } from '../../db/knex';
import { isUuid } from '../../http/ids';
import type { messageOutcomesSchema } from './schema';
import * as store from './store';

export type OutcomeState = 'complained' | 'bounced' | 'delivered' | 'delivery_delayed';

/** An email's outcomes as `GET /v1/email/emails/{id}` answers them, with its `sent_at`. */
export type MessageOutcomes = z.output<typeof messageOutcomesSchema> & { sent_at: string | null };

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
  const sent = row.sent_at ? [{ type: 'email.sent' as const, recipient: null, at: row.sent_at.toISOString(), detail: {} }] : [];
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
