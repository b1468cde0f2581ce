import type { Config } from '../../config';
import type { Knex } from '../../db/knex';
import type { Logger } from '../../logger';
import { createCommerceClient, type CommerceClient } from '../../clients/commerce';

/** What the commerce services need; the API's AppDeps and the worker's activity deps both fit. */
export interface CommerceDeps {
  db: Knex;
  config: Config;
  logger: Logger;
  /** A platform client to use instead of the one built from `config` (tests, the worker). */
  commerce?: CommerceClient;
}

const clients = new WeakMap<Config, CommerceClient>();

/** One client per configuration, so the shops' call-limit readings carry over from request to request. */
export function commerceClientOf(deps: Pick<CommerceDeps, 'config' | 'commerce'>): CommerceClient {
  if (deps.commerce) return deps.commerce;
  let client = clients.get(deps.config);
  if (!client) {
    client = createCommerceClient(deps.config);
    clients.set(deps.config, client);
  }
  return client;
}
