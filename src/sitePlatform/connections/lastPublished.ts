import type { Knex } from '../../db/knex';
import type { Logger } from '../../logger';
import { stampLastPublished } from './store';

const timeOf = (v: unknown): Date | null => {
  const at = typeof v === 'string' ? new Date(v) : null;
  return at && !Number.isNaN(at.getTime()) ? at : null;
};

/**
 * Stamps the account's site row with a publish at `at`; the newest stamp wins. A time ahead of our clock is taken
 * as now, so one skewed or odd value cannot hold the stamp in the future and keep every later publish from showing.
 */
export async function recordPublished(db: Knex, accountId: string, siteId: string, at: Date, now = Date.now()): Promise<Date> {
  const stamp = at.getTime() > now ? new Date(now) : at;
  await stampLastPublished(db, accountId, siteId, stamp);
  return stamp;
}

/**
 * The time of a successful site publish from the platform's answer: the newest `lastPublished` of the custom domains
 * it published; a publish to the platform's subdomain alone names no time, so the answer's arrival is the time.
 */
export function publishedAtOfAnswer(result: unknown, now = Date.now()): Date {
  const domains = (result as { customDomains?: unknown } | null)?.customDomains;
  const times = Array.isArray(domains)
    ? domains.map((d) => timeOf((d as { lastPublished?: unknown } | null)?.lastPublished)).filter((t): t is Date => t !== null)
    : [];
  return times.length ? new Date(Math.max(...times.map((t) => t.getTime()))) : new Date(now);
}

/** The time a site_publish delivery names (`publishedOn`), or null when it names none. */
export const publishedAtOfDelivery = (payload: Record<string, unknown>): Date | null => timeOf(payload.publishedOn);

/**
 * After a successful site_publish operation: stamps the account's site row from the answer. The site is already
 * published, so a failure here is logged and never turns the publish into an error (a retry would only meet the
 * publish cooldown); the site's delivery or the next connect stamps it instead.
 */
export async function recordPublishAnswer(
  deps: { db: Knex; logger: Logger; now?: () => number },
  accountId: string,
  siteId: string,
  result: unknown,
): Promise<void> {
  const now = (deps.now ?? Date.now)();
  try {
    await recordPublished(deps.db, accountId, siteId, publishedAtOfAnswer(result, now), now);
  } catch (err) {
    deps.logger.warn({ accountId, siteId, err: (err as Error).name }, 'site platform publish stamp failed after a successful publish');
  }
}
