import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../../../src/config';
import type { AppDeps } from '../../../src/deps';
import type { EmailScope } from '../../../src/auth/types';
import { newDkimKeyPair } from '../../../src/email/dkim/keyPair';
import { activateKey, recordKeyCheck } from '../../../src/email/dkim/store';
import { insertNewKey } from '../../../src/email/domains/dkimKeys';
import { createDomain, forgetAccountDomains } from '../../../src/email/domains/service';
import { recordCheck } from '../../../src/email/domains/store';
import { closeEmailRuntime } from '../../../src/email/keys/runtime';
import { createEmailKey, type NewEmailKey } from '../../../src/email/keys/service';
import { closeRelay } from '../../../src/email/send/transport';
import { createActivities } from '../../../src/app/activities';
import { createApp } from '../../../src/app/app';
import { createWorker } from '../../../src/temporal/worker';
import { createMetrics } from '../../../src/http/metrics';
import { startSmtpSandbox, type SmtpSandbox, type SmtpSandboxOptions } from '../../../src/sandbox/smtp';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { eventually } from '../../jobs/jobTestKit';
import { callAt, type CallOptions, type CallResult } from '../../helpers/http';

export const SENDER_DOMAIN = 'mail.example.test';
export const FROM = `Acme Support <support@${SENDER_DOMAIN}>`;

/** The real app as one API replica (its own keyring, limiter and relay pool), and the SMTP relay it sends through. */
export interface SendWorld {
  app: { deps: AppDeps; baseUrl: string; call(method: string, path: string, options?: CallOptions): Promise<CallResult> };
  smtp: SmtpSandbox;
  close(): Promise<void>;
}

/**
 * The world's jobs run on a task queue of its own, with a worker that sends through `smtp` (its config is the
 * world's). `temporal`: e.g. an unreachable client (then no worker is started).
 */
export async function startSendWorld(
  options: { config?: Partial<Config>; smtp?: SmtpSandboxOptions; temporal?: Partial<AppDeps['temporal']> } = {},
): Promise<SendWorld> {
  const smtp = await startSmtpSandbox(options.smtp);
  const { deps: base, bundle, temporalAddress, temporalSecurity } = harness();
  const taskQueue = `email-${randomBytes(4).toString('hex')}`;
  const temporal = { ...base.temporal, taskQueue, ...options.temporal };
  const deps: AppDeps = {
    ...base,
    temporal,
    config: { ...base.config, SMTP_URL: smtp.url, ...options.config },
    metrics: createMetrics(false),
  };
  const ownWorker = options.temporal
    ? null
    : await createWorker({
        address: temporalAddress,
        security: temporalSecurity,
        namespace: base.temporal.namespace,
        taskQueue,
        bundle,
        activities: createActivities({ config: deps.config, db: base.db, logger: base.logger }),
      });
  const running = ownWorker?.worker.run();
  const server: Server = createApp(deps).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    app: { deps, baseUrl, call: (method, path, callOptions) => callAt(baseUrl, method, path, callOptions) },
    smtp,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await closeEmailRuntime(deps);
      if (ownWorker) {
        ownWorker.worker.shutdown();
        await running;
        await ownWorker.connection.close();
      }
      closeRelay(deps.config.SMTP_URL ?? '');
      await smtp.stop();
    },
  };
}

/** A fresh account whose sender domain is verified (the DNS check itself is the domains tests' subject). */
export async function senderAccount(domain = SENDER_DOMAIN): Promise<TestAccount> {
  const account = await newAccount();
  await verifiedDomain(account.accountId, domain);
  return account;
}

/** One key pair for every test domain: generating RSA-2048 costs a quarter of a second. */
let testKeyPair: ReturnType<typeof newDkimKeyPair> | undefined;

/** A domain of the account with ownership and DKIM verified (its one key active), as a live send needs it. */
export async function verifiedDomain(accountId: string, name: string): Promise<void> {
  const { db, deps } = harness();
  const domain = await createDomain(db, accountId, name);
  await recordCheck(db, accountId, domain.id, { verified: true, error: null });
  const key = await insertNewKey(db, deps.secretHashKey, domain, await (testKeyPair ??= newDkimKeyPair()));
  await recordKeyCheck(db, key.id, { verified: true, error: null });
  await activateKey(db, domain.id, key.id);
  forgetAccountDomains(accountId);
}

export async function emailKey(
  accountId: string,
  input: Partial<NewEmailKey> & { environment?: 'test' | 'live'; scopes?: EmailScope[] } = {},
): Promise<{ token: string; id: string }> {
  const { key, token } = await createEmailKey(harness().deps, accountId, {
    name: 'send test key',
    environment: 'live',
    scopes: ['email:send', 'email:batch'],
    ratePerSecond: 1000,
    ...input,
  });
  return { token, id: key.id };
}

/** A minimal valid message. */
export function message(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { from: FROM, to: 'jane@customer.test', subject: 'Hello', text: 'Hi Jane', ...overrides };
}

export async function messageRows(accountId: string) {
  return harness().db('email_messages').where({ account_id: accountId }).orderBy('created_at');
}

export async function eventRows(accountId: string) {
  return harness().db('email_events').where({ account_id: accountId }).orderBy('created_at');
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Mocha hooks of a suite on one send world: started before the suite (handed to `onReady`), its relay reset after
 * each test, closed after the suite.
 */
export function useSendWorld(onReady: (world: SendWorld) => void, options: Parameters<typeof startSendWorld>[0] = {}): void {
  let world: SendWorld | undefined;
  before(async () => {
    world = await startSendWorld(options);
    onReady(world);
  });
  afterEach(() => world?.smtp.reset());
  after(async () => {
    await world?.close();
  });
}

/** An email once its delivery has settled (`sent` or `failed`, no recipient waiting), as GET /v1/email/emails/{id} answers it. */
export async function settledEmail(world: SendWorld, token: string, id: string, timeoutMs = 30_000): Promise<CallResult> {
  return eventually(
    () => world.app.call('GET', `/v1/email/emails/${id}`, { token }),
    (r) => r.status === 200 && (r.body.status === 'sent' || r.body.status === 'failed'),
    timeoutMs,
    `email ${id} to settle`,
  );
}
