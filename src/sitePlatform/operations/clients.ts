import type { Config } from '../../config';
import { createSitePlatformClient, TokenBucket, type SitePlatformClient } from '../../clients/sitePlatform';
import type { ResolvedCredentials } from '../connections/resolve';

// One bucket per connection for the whole process: every caller of one connection draws on the same budget.
const buckets = new Map<string, TokenBucket>();

export function clientFor(config: Config, connectionId: string, token: string): SitePlatformClient {
  let bucket = buckets.get(connectionId);
  if (!bucket) buckets.set(connectionId, (bucket = new TokenBucket()));
  return createSitePlatformClient({ apiUrl: config.SITE_PLATFORM_API_URL, token, timeoutMs: config.SITE_PLATFORM_TIMEOUT_MS, bucket });
}

// The client built for one cached credentials object lives exactly as long as that object: it holds the plaintext
// token no longer than the 60 s credential cache does, and a bust or expiry makes the next call build a new one.
const byCredentials = new WeakMap<ResolvedCredentials, { config: Config; client: SitePlatformClient }>();

/** clientFor the resolved credentials, built once per resolution instead of once per call. */
export function clientForCredentials(config: Config, creds: ResolvedCredentials): SitePlatformClient {
  const kept = byCredentials.get(creds);
  if (kept?.config === config) return kept.client;
  const client = clientFor(config, creds.connectionId, creds.token);
  byCredentials.set(creds, { config, client });
  return client;
}
