import type { Config } from '../../config';
import type { Knex } from '../../db/knex';
import { domainTrackingState } from '../domains/service';
import type { PreparedMessage } from '../send/prepare';
import { UNSUBSCRIBE_PATH } from '../unsubscribe/links';
import { planHtml, renderTracked, type HtmlPlan } from './html';
import { clickUrl, customTrackingBase, defaultTrackingBase, OPEN_PATH, CLICK_PATH, pixelUrl, trackingCnameTarget } from './links';
import { saveTrackedLinks } from './store';
import { MAX_LINK_INDEX } from './token';

export interface TrackingDeps {
  db: Knex;
  config: Pick<Config, 'PUBLIC_APP_URL' | 'SECRET_HASH_KEY'>;
}

/** What a message's copies share of its tracking: found once per message, applied per recipient. */
export interface MessageTracking {
  accountId: string;
  emailId: string;
  html: string;
  plan: HtmlPlan;
  base: string;
  secret: string;
  open: boolean;
  /** Each tracked target's index in the stored list (clicks off: empty). */
  linkIndex: Map<string, number>;
}

const plans = new WeakMap<PreparedMessage, Promise<MessageTracking | null>>();

/**
 * The tracking of a message's html per its sender domain's settings, or null when none applies: no html part, both
 * kinds off, nothing to track, or a worker without PUBLIC_APP_URL or SECRET_HASH_KEY (tracking never holds mail back:
 * such a worker sends the copies as written). The copies of one attempt share one plan; the tracked links are stored
 * before any copy carries them.
 */
export function messageTracking(deps: TrackingDeps, accountId: string, message: PreparedMessage): Promise<MessageTracking | null> {
  let plan = plans.get(message);
  if (!plan) plans.set(message, (plan = planFor(deps, accountId, message)));
  return plan;
}

/** The recipient's html: their own pixel and links. */
export function trackedHtmlFor(t: MessageTracking, recipient: string): string {
  const target = { accountId: t.accountId, emailId: t.emailId, recipient: recipient.toLowerCase() };
  return renderTracked(t.html, t.plan, t.open ? pixelUrl(t.base, t.secret, target) : null, (url) => {
    const link = t.linkIndex.get(url);
    return link === undefined ? undefined : clickUrl(t.base, t.secret, { ...target, link });
  });
}

async function planFor(deps: TrackingDeps, accountId: string, message: PreparedMessage): Promise<MessageTracking | null> {
  const { PUBLIC_APP_URL: publicUrl, SECRET_HASH_KEY: secret } = deps.config;
  if (!message.html || !publicUrl || !secret) return null;
  const state = await domainTrackingState(deps.db, accountId, message.from.domain, trackingCnameTarget(publicUrl));
  if (!state.openTracking && !state.clickTracking) return null;
  const base = state.trackingHost ? customTrackingBase(publicUrl, state.trackingHost) : defaultTrackingBase(publicUrl);
  const skip = skipRule(message, [defaultTrackingBase(publicUrl), base]);
  const plan = planHtml(message.html, { links: state.clickTracking, skip });
  const targets = plan.targets.slice(0, MAX_LINK_INDEX + 1);
  if (!state.openTracking && targets.length === 0) return null;
  const stored = targets.length > 0 ? await saveTrackedLinks(deps.db, accountId, message.id, targets) : [];
  return {
    accountId,
    emailId: message.id,
    html: message.html,
    plan,
    base,
    secret,
    open: state.openTracking,
    linkIndex: new Map(stored.map((url, i) => [url, i])),
  };
}

/**
 * Links never tracked: the message's List-Unsubscribe URLs (the sender's own or a custom header) and anything already
 * on this service's unsubscribe or tracking paths.
 */
function skipRule(message: PreparedMessage, bases: string[]): (url: string) => boolean {
  const listUnsubscribe = Object.entries(message.headers ?? {})
    .filter(([name]) => name.toLowerCase() === 'list-unsubscribe')
    .flatMap(([, value]) => [...value.matchAll(/<([^>]*)>/g)].map((m) => normalised(m[1].trim())));
  const prefixes = bases.flatMap((base) => [UNSUBSCRIBE_PATH, OPEN_PATH, CLICK_PATH].map((path) => normalised(`${base}${path}/`)));
  return (url) => listUnsubscribe.includes(url) || prefixes.some((prefix) => url.startsWith(prefix));
}

/** A URL as html.ts reports targets (URL-normalised), so equal links compare equal. */
const normalised = (url: string) => (URL.canParse(url) ? new URL(url).href : url);
