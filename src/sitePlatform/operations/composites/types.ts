import type { Config } from '../../../config';
import type { SitePlatformClient } from '../../../clients/sitePlatform';

/** What a composite operation runs with: the connection's client (one bucket for every step) and its valid parameters. */
export interface CompositeContext {
  client: SitePlatformClient;
  params: Record<string, unknown>;
  config: Config;
  accountId: string;
}
