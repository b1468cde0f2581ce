import { z } from 'zod';

export const DISTRIBUTION_CHANNELS = ['email_digest', 'social', 'community', 'partner', 'outreach', 'paid'] as const;
export const DISTRIBUTION_STATUSES = ['planned', 'drafted', 'scheduled', 'done', 'skipped'] as const;
export const MAX_DISTRIBUTION_ROWS = 12;

const DERIVATIVE_LINK = /^(social_post|campaign|task):[A-Za-z0-9_-]{1,128}$/;

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

const isoDateOrTime = z.union([z.iso.date(), z.iso.datetime({ offset: true })], { error: 'must be an ISO 8601 date or timestamp' });

export const distributionRowSchema = z.strictObject({
  channel: z.enum(DISTRIBUTION_CHANNELS),
  format: z.string().min(1).max(100).describe('What goes out on the channel (e.g. "thread", "newsletter section").'),
  status: z.enum(DISTRIBUTION_STATUSES),
  scheduled_for: isoDateOrTime.nullish(),
  link: z
    .string()
    .max(2048)
    .refine((v) => DERIVATIVE_LINK.test(v) || isHttpUrl(v), {
      error: 'must be social_post:<id>, campaign:<id>, task:<id> or an http(s) URL',
    })
    .nullish()
    .describe('The derivative this row produced: social_post:<id>, campaign:<id>, task:<id>, or a URL.'),
  note: z.string().max(1000).nullish(),
});

/** The stored (and read) shape of settings.distribution_plan. */
export const distributionPlanSchema = z.strictObject({
  owned_first: z.boolean(),
  channels: z.array(distributionRowSchema).max(MAX_DISTRIBUTION_ROWS, { error: `at most ${MAX_DISTRIBUTION_ROWS} channel rows` }),
  written_at: z.iso.datetime({ offset: true }),
});

/** The shape a writer sends: like the stored one, but written_at may be left for the server to stamp. */
export const distributionPlanInput = distributionPlanSchema
  .extend({
    written_at: z.iso
      .datetime({ offset: true })
      .optional()
      .describe('When the plan was written; stamped with the time of the write when absent.'),
  })
  .describe(
    `Distribution plan: { owned_first, channels (at most ${MAX_DISTRIBUTION_ROWS} rows of { channel, format, status, ` +
      'scheduled_for?, link?, note? }), written_at }. A malformed plan is refused with 400; a stored plan that does not ' +
      'match this shape (written before validation existed) is read as no plan. Send null to remove the plan.',
  );

export type DistributionPlan = z.output<typeof distributionPlanSchema>;

/** A stored plan, or null when it is missing or malformed ("a malformed plan is read as no plan"). */
export function readDistributionPlan(value: unknown): DistributionPlan | null {
  const parsed = distributionPlanSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
