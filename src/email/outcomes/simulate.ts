import type { AppDeps } from '../../deps';
import { countEmailSends } from '../../telemetry/metrics';
import type { EmailKeyAuth } from '../keys/authenticate';
import { eventData } from '../send/eventData';
import type { PreparedMessage } from '../send/prepare';
import { envelopeRecipients } from '../send/store';
import { emitEmailEvents } from '../webhooks/service';
import { recordOutcome } from './record';
import { insertSimulated } from './store';
import type { Outcome } from './types';

/** The reserved domain whose addresses a test key's send simulates outcomes for (`.test` never resolves). */
export const SIMULATOR_DOMAIN = 'simulator.workyard.test';

/** What each simulator address reports, by its local part before any `+label`; anything else is delivered. */
function simulatedOutcomes(recipient: string): Outcome[] {
  const local = recipient.split('@')[0].split('+')[0];
  const detail = { simulated: true };
  switch (local) {
    case 'bounced':
      return [{ type: 'email.bounced', recipient, detail: { ...detail, action: 'failed', status: '5.1.1', bounce_type: 'hard' } }];
    case 'complained':
      return [
        { type: 'email.delivered', recipient, detail: { ...detail, action: 'delivered', status: '2.0.0' } },
        { type: 'email.complained', recipient, detail: { ...detail, feedback_type: 'abuse' } },
      ];
    case 'delayed':
      return [{ type: 'email.delivery_delayed', recipient, detail: { ...detail, action: 'delayed', status: '4.4.7' } }];
    default:
      return [{ type: 'email.delivered', recipient, detail: { ...detail, action: 'delivered', status: '2.0.0' } }];
  }
}

/**
 * A test key's accepted sends that name a simulator address (`delivered@`, `bounced@`, `complained@`, `delayed@`
 * simulator.workyard.test): each is stored `simulated` and gets `email.sent`, then per simulator recipient the
 * outcome a real relay would report — without sending mail and without touching the suppression list. Test sends
 * to other addresses stay unstored. Call it after the send was admitted.
 */
export async function simulateTestOutcomes(deps: AppDeps, auth: EmailKeyAuth, messages: PreparedMessage[]): Promise<number> {
  if (auth.environment !== 'test') return 0;
  countEmailSends('simulated', messages.length);
  let simulated = 0;
  for (const message of messages) {
    const targets = envelopeRecipients(message).filter((r) => r.endsWith(`@${SIMULATOR_DOMAIN}`));
    if (targets.length === 0) continue;
    const sentAt = new Date();
    await deps.db.transaction(async (trx) => {
      await insertSimulated(trx, auth.accountId, auth.keyId, message, sentAt);
      await emitEmailEvents(deps, auth.accountId, [{ type: 'email.sent', data: sentData(message, sentAt) }], trx);
    });
    for (const recipient of targets) {
      for (const outcome of simulatedOutcomes(recipient)) await recordOutcome(deps, message.id, outcome, { suppress: false, test: true });
    }
    simulated++;
  }
  return simulated;
}

function sentData(m: PreparedMessage, sentAt: Date): Record<string, unknown> {
  return { ...eventData(m), sent_at: sentAt.toISOString(), test: true };
}
