import type { Config } from '../../../src/config';
import { startReturnPathServer, type ReturnPathServer } from '../../../src/email/returnPath/server';
import { harness } from '../../helpers/harness';
import { eventually } from '../../jobs/jobTestKit';
import { startSendWorld, type SendWorld } from '../send/kit';

export const RETURN_DOMAIN = 'returns.workyard.test';
/** The recipient domain the relay simulates outcomes for; other domains get no reports. */
export const SIMULATED_DOMAIN = 'customer.test';

/** The app sending with VERP through the sandbox relay, which reports back to a real return-path server. */
export interface OutcomeWorld extends SendWorld {
  returnPath: ReturnPathServer;
}

export async function startOutcomeWorld(config: Partial<Config> = {}): Promise<OutcomeWorld> {
  const returnPath = await startReturnPathServer(harness().deps, { host: '127.0.0.1', port: 0, domain: RETURN_DOMAIN });
  const world = await startSendWorld({
    config: { EMAIL_RETURN_PATH_DOMAIN: RETURN_DOMAIN, EMAIL_RETURN_PATH_PORT: returnPath.port, ...config },
    smtp: { outcomes: { returnPath: { host: '127.0.0.1', port: returnPath.port }, domains: [SIMULATED_DOMAIN] } },
  });
  return {
    ...world,
    returnPath,
    close: async () => {
      await world.close();
      await returnPath.stop();
    },
  };
}

export async function eventsOf(accountId: string, types?: string[]) {
  const q = harness()
    .db('email_events')
    .where({ account_id: accountId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  if (types) q.whereIn('type', types);
  return q.select('type', 'data');
}

/** Waits until the account has an event of each of `types` (reports arrive after the send answered). */
export function eventuallyEvents(accountId: string, types: string[], timeoutMs = 10_000) {
  return eventually(
    () => eventsOf(accountId),
    (rows) => types.every((t) => rows.some((r) => r.type === t)),
    timeoutMs,
    `events ${types.join(', ')}`,
  );
}

export async function suppressionRows(accountId: string) {
  return harness().db('email_suppressions').where({ account_id: accountId }).orderBy('email').select('email', 'reason', 'message_id');
}
