import { COMMERCE_SWEEP_SCHEDULES } from '../commerce/sweeps/schedules';
import { SITE_PLATFORM_SWEEP_SCHEDULES } from '../sitePlatform/sweeps/schedules';
import { defineSchedule, type ScheduleEntry } from '../temporal/schedules';
import { commerceOrderBackfillContract } from '../../workflows/commerceOrderBackfill.contract';
import { emailEventRedispatchContract } from '../../workflows/emailEventRedispatch.contract';
import { purgeIdempotencyKeysContract } from '../../workflows/purgeIdempotencyKeys.contract';

/** The service's sweeps; later issues add the spec's cron jobs here. */
export const SCHEDULES: ScheduleEntry[] = [
  defineSchedule(purgeIdempotencyKeysContract, {
    name: 'idempotency-key-purge',
    cron: '17 * * * *',
    args: [],
    overlap: 'SKIP',
    description: 'Deletes stored Idempotency-Key responses older than 24 hours.',
  }),
  defineSchedule(commerceOrderBackfillContract, {
    name: 'commerce-order-backfill',
    cron: '0 * * * *',
    args: [],
    overlap: 'SKIP',
    description:
      'Recovers missed shop orders: per active connection, the orders updated since its newest logged one (or the last 48 hours), ingested with topic orders/updated.',
  }),
  defineSchedule(emailEventRedispatchContract, {
    name: 'email-event-redispatch',
    cron: '* * * * *',
    args: [],
    overlap: 'SKIP',
    description:
      'Starts the delivery workflow of email events older than a minute that have none (Temporal was unreachable when they were emitted).',
  }),
  ...COMMERCE_SWEEP_SCHEDULES,
  ...SITE_PLATFORM_SWEEP_SCHEDULES,
];
