import { COMMERCE_SWEEP_SCHEDULES } from '../commerce/sweeps/schedules';
import type { ScheduleEntry } from '../temporal/schedules';

/** The service's sweeps; later issues add the spec's cron jobs here. */
export const SCHEDULES: ScheduleEntry[] = [
  {
    name: 'idempotency-key-purge',
    cron: '17 * * * *',
    workflowType: 'purgeIdempotencyKeys',
    args: [],
    overlap: 'SKIP',
    description: 'Deletes stored Idempotency-Key responses older than 24 hours.',
  },
  {
    name: 'commerce-order-backfill',
    cron: '0 * * * *',
    workflowType: 'commerceOrderBackfill',
    args: [],
    overlap: 'SKIP',
    description: 'Recovers missed shop orders: per active connection, the orders updated since its newest logged one (or the last 48 hours), ingested with topic orders/updated.',
  },
  {
    name: 'email-event-redispatch',
    cron: '* * * * *',
    workflowType: 'emailEventRedispatch',
    args: [],
    overlap: 'SKIP',
    description: 'Starts the delivery workflow of email events older than a minute that have none (Temporal was unreachable when they were emitted).',
  },
  ...COMMERCE_SWEEP_SCHEDULES,
];
