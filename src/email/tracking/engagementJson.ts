import { z } from 'zod';
import type { Engagement } from './service';

const timestamp = z.string().meta({ format: 'date-time', description: 'ISO 8601 timestamp (UTC).' });

const hit = {
  recipient: z.string().describe('The recipient whose copy it was (lower case).'),
  first_at: timestamp.describe('The first time: when the event was emitted.'),
  last_at: timestamp,
  count: z.number().int().describe('How many times, the first included.'),
};

export const engagementSchema = z
  .object({
    object: z.literal('engagement'),
    email_id: z.string().meta({ format: 'uuid' }),
    opens: z.array(z.object(hit)).describe('Per recipient whose pixel loaded, first opens first.'),
    clicks: z
      .array(
        z.object({
          ...hit,
          link: z.number().int().describe("The link's index among the email's tracked links."),
          url: z.string().nullable().describe('The URL it redirected to.'),
        }),
      )
      .describe('Per recipient and link followed, first clicks first.'),
  })
  .meta({ id: 'EmailEngagement' });

export type EngagementJson = z.infer<typeof engagementSchema>;

export function toEngagementJson(emailId: string, e: Engagement): EngagementJson {
  const times = (r: { first_at: Date; last_at: Date; count: number }) => ({
    first_at: r.first_at.toISOString(),
    last_at: r.last_at.toISOString(),
    count: r.count,
  });
  return {
    object: 'engagement',
    email_id: emailId,
    opens: e.opens.map((o) => ({ recipient: o.recipient, ...times(o) })),
    clicks: e.clicks.map((c) => ({ recipient: c.recipient, link: c.link, url: c.url, ...times(c) })),
  };
}
