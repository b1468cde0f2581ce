// Workyard's TypeScript client: every operation of /openapi.json as a typed function (src/generated/, made by Hey API's
// generator with `npm run client:generate`), and helpers where plain HTTP is awkward.
import { randomUUID } from 'node:crypto';
import { createClient, type Client } from './generated/client';
import { retryingFetch } from './retry';

export * from './generated/sdk.gen';
export type * from './generated/types.gen';
export type { Client } from './generated/client';
export { followJob, type FollowOptions } from './jobs';
export { listAll, type NextPage } from './lists';
export { retryAfterMs, retryingFetch } from './retry';

export interface WorkyardOptions {
  /** Where the API answers, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** A session token (`wys_…`) or an agent key (`wyk_…`), sent as `Authorization: Bearer`. */
  token: string;
  /** How often a 429 or 503 answer is retried after its Retry-After (default 3; 0 turns retries off). */
  retries?: number;
  fetch?: typeof fetch;
}

/** A client for one credential: pass it as `client` to the operations (`createCrmContact({ client, body })`). */
export function createWorkyardClient(options: WorkyardOptions): Client {
  return createClient({
    baseUrl: options.baseUrl,
    auth: () => options.token,
    fetch: retryingFetch(options.fetch ?? fetch, options.retries ?? 3),
  });
}

/** A fresh `Idempotency-Key`: send the same one when you send a request again, so it is done once. */
export const idempotencyKey = (): string => randomUUID();
