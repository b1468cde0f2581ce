import type { Config } from '../../config';
import type { Knex } from '../../db/knex';
import { forgetDkimKeys } from '../dkim/signingKeys';
import { normaliseDomain } from './name';
import { returnPathHost } from './records';
import * as store from './store';
import { AccountCache } from './verifiedCache';

/** What the send path asks of a From domain. */
export interface DomainSendingState {
  /** The ownership record verified: test keys may send from it. */
  verified: boolean;
  /** An active DKIM key's record verified: live keys may send from it (with `verified`). */
  dkimVerified: boolean;
  /**
   * `bounces.<domain>` when its MX and SPF records verified against today's EMAIL_RETURN_PATH_DOMAIN: a VERP
   * envelope sender there makes SPF align with From. Null: the envelope stays at EMAIL_RETURN_PATH_DOMAIN.
   */
  returnPathDomain: string | null;
}

/** The tracking a From domain asks for (tracked links use `trackingHost` only once its CNAME verified). */
export interface DomainTrackingState {
  openTracking: boolean;
  clickTracking: boolean;
  /** The domain's tracking host when its CNAME verified against today's target; else null (PUBLIC_APP_URL is used). */
  trackingHost: string | null;
}

interface StoredState {
  verified: boolean;
  dkimVerified: boolean;
  returnPathTarget: string | null;
  openTracking: boolean;
  clickTracking: boolean;
  trackingHost: string | null;
  trackingHostTarget: string | null;
}

const UNKNOWN: StoredState = {
  verified: false,
  dkimVerified: false,
  returnPathTarget: null,
  openTracking: false,
  clickTracking: false,
  trackingHost: null,
  trackingHostTarget: null,
};

const states = new AccountCache<Map<string, StoredState>>();

/** Forget what this process cached of the account's domains (states and signing keys): sends see a change at once. */
export function forgetAccountDomains(accountId: string): void {
  states.invalidate(accountId);
  forgetDkimKeys(accountId);
}

async function load(db: Knex, accountId: string): Promise<Map<string, StoredState>> {
  const rows = await store.sendingStates(db, accountId);
  return new Map(
    rows.map((r) => [
      r.name,
      {
        verified: r.verified,
        dkimVerified: r.dkim_verified,
        returnPathTarget: r.return_path_target,
        openTracking: r.open_tracking,
        clickTracking: r.click_tracking,
        trackingHost: r.tracking_host,
        trackingHostTarget: r.tracking_host_target,
      },
    ]),
  );
}

function stateOf(loaded: Map<string, StoredState>, name: string, returnPath: string | undefined): DomainSendingState {
  const state = loaded.get(name) ?? UNKNOWN;
  const aligned = !!returnPath && state.returnPathTarget?.toLowerCase() === returnPath.toLowerCase();
  return { verified: state.verified, dkimVerified: state.dkimVerified, returnPathDomain: aligned ? returnPathHost(name) : null };
}

/**
 * What a send from `domain` (any case; a trailing dot ignored) may do. Runs on every send, so it reads a per-process
 * cache: changes made through this process are seen at once, changes made through another replica within
 * VERIFIED_CACHE_TTL_MS (5 s). A domain that is not the account's answers all false.
 */
export function domainSendingState(
  deps: { db: Knex; config: Pick<Config, 'EMAIL_RETURN_PATH_DOMAIN'> },
  accountId: string,
  domain: string,
): DomainSendingState | Promise<DomainSendingState> {
  const name = normaliseDomain(domain);
  const returnPath = deps.config.EMAIL_RETURN_PATH_DOMAIN;
  const loaded = states.get(accountId, () => load(deps.db, accountId));
  return loaded instanceof Map ? stateOf(loaded, name, returnPath) : loaded.then((l) => stateOf(l, name, returnPath));
}

/** Whether `domain` (any case) is a verified sender domain of the account (ownership only), from the same cache. */
export function isDomainVerified(db: Knex, accountId: string, domain: string): boolean | Promise<boolean> {
  const state = domainSendingState({ db, config: { EMAIL_RETURN_PATH_DOMAIN: undefined } }, accountId, domain);
  return 'verified' in state ? state.verified : state.then((s) => s.verified);
}

function trackingOf(loaded: Map<string, StoredState>, name: string, cnameTarget: string | undefined): DomainTrackingState {
  const state = loaded.get(name) ?? UNKNOWN;
  const hostVerified = !!cnameTarget && !!state.trackingHost && state.trackingHostTarget?.toLowerCase() === cnameTarget.toLowerCase();
  return { openTracking: state.openTracking, clickTracking: state.clickTracking, trackingHost: hostVerified ? state.trackingHost : null };
}

/**
 * The open and click tracking of sends from `domain`, from the same per-process cache as `domainSendingState` (so a
 * change made through another replica applies within VERIFIED_CACHE_TTL_MS). `cnameTarget`: what the tracking host's
 * CNAME must name today (src/email/tracking/links.ts).
 */
export async function domainTrackingState(
  db: Knex,
  accountId: string,
  domain: string,
  cnameTarget: string | undefined,
): Promise<DomainTrackingState> {
  return trackingOf(await states.get(accountId, () => load(db, accountId)), normaliseDomain(domain), cnameTarget);
}
