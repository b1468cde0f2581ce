import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import type { RouteDef } from '../../http/route';
import { twinRoutes } from '../twins';
import { contentCalendar, MAX_CALENDAR_ENTRIES } from './service';
import { CALENDAR, calendarBound } from './window';
import * as docs from './docs';

const calendarQuery = z.strictObject({
  from: calendarBound('from')
    .optional()
    .describe(
      `Start of the window: ISO 8601 timestamp with a zone, or YYYY-MM-DD (start of that UTC day). Default: ${CALENDAR.defaultReachDays} days before now.`,
    ),
  to: calendarBound('to')
    .optional()
    .describe(
      `End of the window, inclusive: ISO 8601 timestamp with a zone, or YYYY-MM-DD (end of that UTC day). Default: ${CALENDAR.defaultReachDays} days after now.`,
    ),
});

const entrySchema = z
  .object({
    content_id: z.string(),
    title: z.string(),
    kind: z.enum(['scheduled', 'published', 'failed', 'recorded_only']),
    date: z.string().describe('ISO 8601 timestamp of the event.'),
    executes: z
      .boolean()
      .describe(
        "True exactly when the item's publish workflow holds the date (kind `scheduled`); false for `recorded_only`, a date that nothing publishes.",
      ),
    status: z.string(),
    content_type: z.string(),
  })
  .meta({ id: 'ContentCalendarEntry' });

const cadenceSchema = z
  .object({
    as_of: z.string().describe('The moment the counts are taken at (now).'),
    published_last_30_days: z.number().int(),
    published_last_90_days: z.number().int(),
    published_per_week_last_90_days: z.number().describe('published_last_90_days ÷ (90/7), one decimal.'),
    scheduled_next_30_days: z.number().int().describe('Schedules that will execute in the next 30 days.'),
    recorded_only_next_30_days: z.number().int().describe('Scheduled dates in the next 30 days that nothing will publish.'),
    failed_last_30_days: z.number().int(),
    last_published_at: z.string().nullable(),
    next_scheduled_at: z.string().nullable().describe('The next schedule that will execute, or null.'),
  })
  .meta({ id: 'ContentCadence' });

const calendarSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    entries: z.array(entrySchema),
    truncated: z.boolean().describe(`True when the window held more than ${MAX_CALENDAR_ENTRIES} entries; narrow it to see the rest.`),
    cadence: cadenceSchema,
  })
  .meta({ id: 'ContentCalendar' });

const description = [
  "Every dated event of the account's content items inside the window [from, to], oldest first (ties by content id, then kind). One item can give several entries.",
  '',
  "- `scheduled`: the item's `scheduled_publish_at` falls in the window and its publish workflow (`content-publish`, see `GET /api/jobs`) holds it: the date was accepted by the workflow, which publishes the item then. `executes` is true.",
  '- `recorded_only`: a stored `scheduled_publish_at` that no workflow holds, so nothing publishes it: `deploy_target` `none`, no site link, or a date stored before scheduled publishing existed (never re-armed by a later write). `executes` is false for these and only these.',
  '- `published`: `published_at` falls in the window.',
  '- `failed`: `publish_failed_at` (the last failed publish: a scheduled publish that kept failing after its retries, or a failed publish-to-site) falls in the window.',
  '',
  `Window: \`from\` and \`to\` each default to ${CALENDAR.defaultReachDays} days from now — \`from\` ${CALENDAR.defaultReachDays} days before, \`to\` ${CALENDAR.defaultReachDays} days after — so the default is the ${CALENDAR.defaultReachDays * 2} days around today; each absent bound takes its default independently of the other. A bound is an ISO 8601 timestamp with a zone or a date alone (UTC day). A window longer than ${CALENDAR.maxWindowDays} days is 400 \`calendar_window_too_large\` (a date-only window of ${CALENDAR.maxWindowDays} calendar days fits); \`to\` before \`from\` is 400 \`calendar_window_invalid\`; an unreadable date is 400 \`validation_failed\`.`,
  '',
  `At most ${MAX_CALENDAR_ENTRIES} entries; \`truncated\` says when more exist. \`cadence\` counts the whole account around now, whatever the window: published in the last 30 and 90 days, the weekly average over 90 days, schedules that will execute in the next 30 days, recorded-only dates in the next 30 days, failures in the last 30 days, the last publish and the next executing schedule.`,
].join('\n');

export function calendarRoutes(): RouteDef[] {
  return twinRoutes(
    {
      method: 'get',
      path: '/marketing/content/calendar',
      operationId: 'getContentCalendar',
      tags: ['Marketing content'],
      permission: 'marketing.content:read',
      summary: docs.getContentCalendarSummary,
      description,
      query: calendarQuery,
      responses: { 200: { description: 'The calendar of the window', schema: calendarSchema } },
      errors: [
        { status: 400, code: 'calendar_window_too_large', description: `The window is longer than ${CALENDAR.maxWindowDays} days.` },
        { status: 400, code: 'calendar_window_invalid', description: '`to` is before `from`.' },
        {
          status: 400,
          code: 'validation_failed',
          description: '`from` or `to` is not a readable date, or an unknown query parameter was sent.',
        },
      ],
    },
    async ({ query, auth, deps }) => ({ body: await contentCalendar(deps.db, accountOf(auth), query) }),
  );
}
