import { harness } from '../../helpers/harness';
import { call } from '../../helpers/http';
import { eventually } from '../../jobs/jobTestKit';
import type { SendWorld } from '../send/kit';

/** An RFC 3339 time `seconds` from now, with an explicit +01:00 offset (as a client in Paris would write it). */
export function inSeconds(seconds: number, offset = '+01:00'): string {
  const sign = offset.startsWith('-') ? -1 : 1;
  const [h, m] = offset.slice(1).split(':').map(Number);
  const local = new Date(Date.now() + seconds * 1000 + sign * (h * 60 + m) * 60_000);
  return `${local.toISOString().slice(0, 19)}${offset}`;
}

/** What the relay received of one email. */
export function receivedOf(world: SendWorld, messageId: string) {
  return world.smtp.messages.filter((m) => m.parsed.header('message-id') === messageId);
}

export const jobIdOf = (accountId: string, emailId: string) => `email-scheduled:${accountId}:${emailId}`;

/** Waits until the email's job has closed (GET /api/jobs/{id} with the owner's session) and answers it. */
export async function scheduledJobSettled(ownerToken: string, accountId: string, emailId: string, timeoutMs = 60_000) {
  const res = await eventually(
    () => call('GET', `/api/jobs/${encodeURIComponent(jobIdOf(accountId, emailId))}`, { token: ownerToken }),
    (r) => r.status === 200 && r.body.status !== 'running',
    timeoutMs,
    `scheduled job of ${emailId} to close`,
  );
  return res.body;
}

export async function messageRow(id: string) {
  return harness().db('email_messages').where({ id }).first();
}
