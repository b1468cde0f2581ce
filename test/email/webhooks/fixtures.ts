import assert from 'node:assert/strict';
import type { EmailScope } from '../../../src/auth/types';
import { createEmailKey } from '../../../src/email/keys/service';
import type { EmailEventDeliveryResult } from '../../../workflows/emailEventDelivery.contract';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import type { PrivateApp } from '../../helpers/privateApp';
import { call, type CallResult } from '../../helpers/http';
import { startWebhookWorld as startWorld, workflowResult } from '../../helpers/webhookWorld';
import { eventually } from '../../jobs/jobTestKit';

/** One attempt's deadline in these tests (the product default is 10 s). */
export const TEST_TIMEOUT_MS = 400;

export type { WebhookWorld } from '../../helpers/webhookWorld';

/** The email suites' world: short attempt timeouts (EMAIL_WEBHOOK_TIMEOUT_MS) on a task queue `email-webhooks-…`. */
export const startWebhookWorld = () => startWorld('email-webhooks', { EMAIL_WEBHOOK_TIMEOUT_MS: TEST_TIMEOUT_MS });

export interface KeyedAccount {
  accountId: string;
  key: string;
}

export async function emailKey(
  accountId: string,
  scopes: EmailScope[] = ['email:webhooks'],
  environment: 'test' | 'live' = 'test',
): Promise<string> {
  const { token } = await createEmailKey(harness().deps, accountId, { name: 'webhooks test', environment, scopes });
  return token;
}

export async function keyedAccount(): Promise<KeyedAccount> {
  const { accountId } = await newAccount('Webhooks Co');
  return { accountId, key: await emailKey(accountId) };
}

/** Creates an endpoint through the route (on `app`, the harness app by default) and answers the 201 body. */
export async function createEndpoint(
  key: string,
  body: Record<string, unknown>,
  app?: Pick<PrivateApp, 'call'>,
): Promise<{ id: string; secret: string; [k: string]: unknown }> {
  const res = await (app
    ? app.call('POST', '/v1/email/webhooks', { token: key, body })
    : call('POST', '/v1/email/webhooks', { token: key, body }));
  assert.equal(res.status, 201, res.text);
  return res.body;
}

export async function deliveriesOf(app: Pick<PrivateApp, 'call'>, key: string, endpointId: string): Promise<CallResult> {
  const res = await app.call('GET', `/v1/email/webhooks/${endpointId}/deliveries`, { token: key });
  assert.equal(res.status, 200, res.text);
  return res;
}

/** Waits for the event's delivery workflow (started in the background by the emit) to finish and answers its result. */
export const deliveryResult = (eventId: string, timeoutMs = 20_000) =>
  workflowResult<EmailEventDeliveryResult>(`email-event:${eventId}`, timeoutMs);

export const waitFor = eventually;
