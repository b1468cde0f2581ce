import { COMMERCE_SWEEP_SCHEDULES } from '../commerce/sweeps/schedules';
import { SITE_PLATFORM_SWEEP_SCHEDULES } from '../sitePlatform/sweeps/schedules';
import { defineSchedule, type ScheduleEntry } from '../temporal/schedules';
import { contentAnalyticsDailyContract } from '../../workflows/contentAnalyticsDaily.contract';
import { commerceOrderBackfillContract } from '../../workflows/commerceOrderBackfill.contract';
import { purgeIdempotencyKeysContract } from '../../workflows/purgeIdempotencyKeys.contract';

/** The service's sweeps: each a Temporal Schedule with its run-now route. */
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
  defineSchedule(contentAnalyticsDailyContract, {
    name: 'content-analytics-daily',
    cron: '15 2 * * *',
    args: [],
    overlap: 'SKIP',
    description:
      "Stores one analytics row per linked content item per closed UTC day (views, unique views, the rolling 30-day scorecard as of that night), filling the days of the last 30 missed while the collector was down; measures each item's search rank for its target keyword at most every ANALYTICS_RANK_EVERY_DAYS days within the monthly web-search cap.",
  }),
  ...COMMERCE_SWEEP_SCHEDULES,
  ...SITE_PLATFORM_SWEEP_SCHEDULES,
];
