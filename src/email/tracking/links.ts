import { isIP } from 'node:net';
import { ApiError } from '../../http/errors';
import { trackingToken, type TrackingTarget } from './token';

export const OPEN_PATH = '/v1/email/t/o';
export const CLICK_PATH = '/v1/email/t/c';

/** The answer when tracking is switched on but the server has no public URL to make its links on. */
export function trackingNotConfigured(why: string, field: string): ApiError {
  return new ApiError(422, 'tracking_not_configured', `${why}; nothing was changed. Ask the operator to set PUBLIC_APP_URL`, {
    details: { field },
  });
}

/** Where tracked links point by default: PUBLIC_APP_URL, without a trailing slash. */
export const defaultTrackingBase = (publicAppUrl: string) => publicAppUrl.replace(/\/+$/, '');

/**
 * The name a domain's tracking host is a CNAME of: PUBLIC_APP_URL's host. Undefined when there is none a CNAME can
 * name (no public URL, or an IP address).
 */
export function trackingCnameTarget(publicAppUrl: string | undefined): string | undefined {
  if (!publicAppUrl || !URL.canParse(publicAppUrl)) return undefined;
  const host = new URL(publicAppUrl).hostname;
  return host && !isIP(host.replace(/^\[|\]$/g, '')) ? host.toLowerCase() : undefined;
}

/**
 * The base URL of a verified custom tracking host: PUBLIC_APP_URL with the host replaced (scheme, port and path kept),
 * since the CNAME brings its requests to the same server, whose operator serves TLS for the name.
 */
export function customTrackingBase(publicAppUrl: string, trackingHost: string): string {
  const url = new URL(publicAppUrl);
  url.hostname = trackingHost;
  return defaultTrackingBase(url.href);
}

export const pixelUrl = (base: string, secret: string, target: Omit<TrackingTarget, 'kind' | 'link'>) =>
  `${base}${OPEN_PATH}/${trackingToken(secret, { ...target, kind: 'open' })}.gif`;

export const clickUrl = (base: string, secret: string, target: Omit<TrackingTarget, 'kind'>) =>
  `${base}${CLICK_PATH}/${trackingToken(secret, { ...target, kind: 'click' })}`;
