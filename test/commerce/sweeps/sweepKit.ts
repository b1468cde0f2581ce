import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { createApp } from '../../../src/app/app';
import { createMetrics } from '../../../src/http/metrics';
import { SCHEDULES } from '../../../src/app/schedules';
import type { ArgsOf, WorkflowContract } from '../../../workflows/defineWorkflow';
import { harness } from '../../helpers/harness';
import { callAt, type CallResult } from '../../helpers/http';

/** Runs a sweep workflow on the harness worker with a contract-checked input and answers its result (bounded wait). */
export async function runSweep<T = any, C extends WorkflowContract = WorkflowContract>(
  contract: C,
  input: ArgsOf<C>[0] = {},
  timeoutMs = 20_000,
): Promise<T> {
  const { client, taskQueue } = harness();
  const { workflowType } = contract;
  const handle = await client.workflow.start(workflowType, {
    taskQueue,
    workflowId: `test-${workflowType}-${randomUUID()}`,
    args: [input],
  });
  return client.withDeadline(Date.now() + timeoutMs, () => handle.result()) as Promise<T>;
}

/** The account's inbox items of one kind, oldest first. */
export async function inboxItems(accountId: string, kind: string) {
  return harness().db('inbox_items').where({ account_id: accountId, kind }).orderBy('created_at');
}

/** Ages a connection's install and its subscriptions' last delivery (hours ago; null = never received). */
export async function age(connectionId: string, installedHoursAgo: number, lastReceivedHoursAgo: number | null): Promise<void> {
  const { db } = harness();
  await db('commerce_connections')
    .where({ id: connectionId })
    .update({ installed_at: db.raw(`now() - make_interval(hours => ?)`, [installedHoursAgo]) });
  await db('commerce_webhook_subscriptions')
    .where({ connection_id: connectionId })
    .update({
      last_received_at: lastReceivedHoursAgo === null ? null : db.raw(`now() - make_interval(hours => ?)`, [lastReceivedHoursAgo]),
    });
}

export interface CronApp {
  call(name: string, token?: string): Promise<CallResult>;
  close(): Promise<void>;
}

/** The real app with the product's schedule table (the harness app runs a test table), on its own port. */
export async function startCronApp(): Promise<CronApp> {
  const deps = { ...harness().deps, schedules: SCHEDULES, metrics: createMetrics(false) };
  const server: Server = createApp(deps).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    call: (name, token = harness().deps.config.CRON_SECRET!) => callAt(baseUrl, 'POST', `/api/cron/${name}`, { token }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
