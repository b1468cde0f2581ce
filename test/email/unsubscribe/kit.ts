import assert from 'node:assert/strict';
import type { ReceivedMessage } from '../../../src/sandbox/smtp';
import { harness } from '../../helpers/harness';

/** The public URL the send world's links are made with (a reachable https one, as in production). */
export const PUBLIC_URL = 'https://api.workyard.test';

export const ONE_CLICK_BODY = 'List-Unsubscribe=One-Click';

/** The one-click link of a received copy, checked to be ours and to come with List-Unsubscribe-Post. */
export function linkOf(received: ReceivedMessage): { url: string; path: string; token: string } {
  const header = received.parsed.header('list-unsubscribe');
  const match = /^<(https:\/\/api\.workyard\.test(\/v1\/email\/unsubscribe\/([A-Za-z0-9_-]+)))>$/.exec(header ?? '');
  assert.ok(match, `a List-Unsubscribe link of this service: ${header}`);
  assert.equal(received.parsed.header('list-unsubscribe-post'), ONE_CLICK_BODY);
  return { url: match[1], path: match[2], token: match[3] };
}

/** The copy the relay received for one recipient (each recipient with a link has a transaction of its own). */
export function copyFor(messages: ReceivedMessage[], recipient: string): ReceivedMessage {
  const copy = messages.find((m) => m.envelope.to.includes(recipient));
  assert.ok(copy, `a copy for ${recipient}`);
  assert.deepEqual(copy.envelope.to, [recipient], 'the copy goes to that recipient alone');
  return copy;
}

export async function suppressionRows(accountId: string) {
  return harness().db('email_suppressions').where({ account_id: accountId }).orderBy('email').select('email', 'reason', 'message_id');
}

export async function unsubscribedEvents(accountId: string) {
  return harness().db('email_events').where({ account_id: accountId, type: 'email.unsubscribed' }).orderBy('created_at');
}
