import type { Config } from '../../config';
import { createSitePlatformClient, TokenBucket, type SitePlatformClient } from '../../platforms/sitePlatform';

// One bucket per connection for the whole process: every caller of one connection draws on the same budget.
const buckets = new Map<string, TokenBucket>();

export function clientFor(config: Config, connectionId: string, token: string): SitePlatformClient {
  let bucket = buckets.get(connectionId);
  if (!bucket) buckets.set(connectionId, (bucket = new TokenBucket()));
  return createSitePlatformClient({ apiUrl: config.SITE_PLATFORM_API_URL, token, timeoutMs: config.SITE_PLATFORM_TIMEOUT_MS, bucket });
}
