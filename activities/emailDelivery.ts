import { Context } from '@temporalio/activity';
import { dkimKeysFor, signMessage } from '../src/email/dkim';
import { attemptDeliveries } from '../src/email/send/attempt';
import type { PreparedMessage } from '../src/email/send/prepare';
import type { DeliveryAttemptInput, DeliveryAttemptOutcome } from '../workflows/emailDelivery.contract';
import type { ActivityDeps } from './deps';

/** How often an attempt tells the server it is alive (the workflows' heartbeat timeout is a few of these). */
const HEARTBEAT_MS = 5_000;

/** One delivery attempt of accepted live messages: a single send's, a batch slice's, a due scheduled email's. */
export function createEmailDeliveryActivities(deps: ActivityDeps) {
  const keys = { db: deps.db, secretHashKey: deps.config.SECRET_HASH_KEY ?? '' };
  // Every live message is signed with its From domain's active DKIM keys.
  const sign = async (raw: Buffer, accountId: string, message: PreparedMessage) =>
    signMessage(raw, await dkimKeysFor(keys, accountId, message.from.domain));
  return {
    async attemptEmailDeliveries(input: DeliveryAttemptInput): Promise<DeliveryAttemptOutcome> {
      // A worker that dies mid-attempt is noticed within the heartbeat timeout, not the attempt's whole deadline.
      const context = Context.current();
      const beat = setInterval(() => context.heartbeat(), HEARTBEAT_MS);
      try {
        return await attemptDeliveries({ db: deps.db, config: deps.config, sign }, input);
      } finally {
        clearInterval(beat);
      }
    },
  };
}
