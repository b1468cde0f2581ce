import assert from 'node:assert/strict';
import { AlertEventRelay } from '../../src/alerts/relay';
import type { AlertEventDeliveryResult } from '../../workflows/alertEventDelivery.contract';
import { Receiver } from '../email/webhooks/receiver';
import { newAccount, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import type { CallResult } from '../helpers/http';
import type { PrivateApp } from '../helpers/privateApp';
import { startWebhookWorld, workflowResult, type WebhookWorld } from '../helpers/webhookWorld';
import { eventually } from '../jobs/jobTestKit';

/** One attempt's deadline in these tests (the product default is 10 s). */
export const TEST_TIMEOUT_MS = 400;

/**
 * The webhook world (test/helpers/webhookWorld.ts) with short alert attempt timeouts (ALERT_WEBHOOK_TIMEOUT_MS), on a
 * task queue `alerts-…`, and an alert relay.
 */
export type AlertWorld = WebhookWorld;

export async function startAlertWorld(): Promise<AlertWorld> {
  const world = await startWebhookWorld('alerts', { ALERT_WEBHOOK_TIMEOUT_MS: TEST_TIMEOUT_MS });
  // Events recorded by activities reach their workflow through the relay (the API runs it); a short pause here.
  const relay = new AlertEventRelay(world.deps, { minAgeMs: 500, idleMs: 200, retryMs: 500 }).start();
  return {
    ...world,
    async stop() {
      await relay.stop();
      await world.stop();
    },
  };
}

/** What a test of a suite with `useAlertWorld` works with: the suite's world, and its own receiver and account. */
export interface AlertTest {
  world: AlertWorld;
  receiver: Receiver;
  account: TestAccount;
}

/**
 * The hooks of a suite whose alerts go to a receiver: one world for the suite and, for each test, a fresh receiver
 * (closed after it) and a new account named `accountName`, handed to `onEach` before the test runs.
 */
export function useAlertWorld(accountName: string, onEach: (test: AlertTest) => void): void {
  let world: AlertWorld | undefined;
  let receiver: Receiver | undefined;
  before(async () => {
    world = await startAlertWorld();
  });
  after(async () => {
    await world?.stop();
  });
  beforeEach(async () => {
    receiver = await Receiver.start();
    onEach({ world: world!, receiver, account: await newAccount(accountName) });
  });
  afterEach(async () => {
    await receiver?.close();
  });
}

/** Creates an endpoint through the route and answers the 201 body. */
export async function createEndpoint(
  app: PrivateApp,
  token: string,
  body: Record<string, unknown>,
): Promise<{ id: string; secret: string; [k: string]: unknown }> {
  const res = await app.call('POST', '/api/webhook-endpoints', { token, body });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

export async function deliveriesOf(app: PrivateApp, token: string, endpointId: string): Promise<CallResult> {
  const res = await app.call('GET', `/api/webhook-endpoints/${endpointId}/deliveries`, { token });
  assert.equal(res.status, 200, res.text);
  return res;
}

/** Waits for the event's delivery workflow to exist and finish, and answers its result. */
export const deliveryResult = (eventId: string, timeoutMs = 20_000) =>
  workflowResult<AlertEventDeliveryResult>(`alert-event:${eventId}`, timeoutMs);

/** The id of the one alert event of `type` the account has, once recorded. */
export async function eventOf(accountId: string, type: string, timeoutMs = 15_000): Promise<{ id: string; data: Record<string, unknown> }> {
  const rows = await eventually(
    () => harness().db('alert_events').where({ account_id: accountId, type }).select('id', 'data'),
    (found) => found.length > 0,
    timeoutMs,
    `a ${type} event of ${accountId}`,
  );
  assert.equal(rows.length, 1, `one ${type} event`);
  return rows[0];
}

export const waitFor = eventually;
