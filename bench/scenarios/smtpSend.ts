import { createTransport } from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { closeEmailRuntime } from '../../src/email/keys/runtime';
import { createEmailKey } from '../../src/email/keys/service';
import { startSubmissionServer } from '../../src/email/smtp/server';
import { selfSigned } from '../../src/email/smtp/tls';
import { benchEmailAccount } from '../lib/emailAccount';
import type { BenchEnv } from '../lib/env';
import { pool, sampleLoad, type Samples } from '../lib/load';
import type { ScenarioResult } from '../lib/report';

const CONCURRENCY = 8;
const ROUNDS = 3;
const ROUND_MS = 4_000;
const RATE_PER_SECOND = 10_000;

/** Messages over a pool of CONCURRENCY STARTTLS+AUTH connections (each reused for many messages). */
async function round(port: number, pass: string, from: string): Promise<Samples> {
  const transport = createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    requireTLS: true,
    tls: { rejectUnauthorized: false },
    auth: { user: 'workyard', pass },
    pool: true,
    maxConnections: CONCURRENCY,
    maxMessages: Infinity,
  });
  try {
    return await sampleLoad(
      async () => {
        await transport.sendMail({
          from,
          to: 'reader@example.com',
          subject: 'Your weekly digest',
          html: '<p>Hello from the bench.</p>',
          text: 'Hello from the bench.',
        });
      },
      { concurrency: CONCURRENCY, durationMs: ROUND_MS, warmupOperations: 100 },
    );
  } finally {
    transport.close();
  }
}

/** A bare smtp-server with the same TLS and AUTH: accepts any credentials and every message, and discards it. */
async function bareServer(tls: { cert: string; key: string }): Promise<SMTPServer> {
  const server = new SMTPServer({
    ...tls,
    authMethods: ['PLAIN', 'LOGIN'],
    disableReverseLookup: true,
    logger: false,
    onAuth: (_auth, _session, callback) => callback(null, { user: 'workyard' }),
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => callback(null, 'OK'));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return server;
}

/**
 * SMTP submission with a test key (STARTTLS, AUTH with the key, MAIL FROM domain rules, MIME parse, the REST
 * schema and send path, limiter and usage; simulated send) vs a bare smtp-server that accepts and discards, same
 * nodemailer client and pool, in the same process. Alternating rounds.
 */
export async function smtpSend(env: BenchEnv): Promise<ScenarioResult> {
  const { accountId, domain, deps } = await benchEmailAccount(env, 'Bench SMTP', 'bench-smtp');

  const { token } = await createEmailKey(deps, accountId, {
    name: 'Bench SMTP test key',
    environment: 'test',
    scopes: ['email:send'],
    ratePerSecond: RATE_PER_SECOND,
  });
  const tls = await selfSigned();
  const ours = await startSubmissionServer(deps, { host: '127.0.0.1', starttlsPort: 0, tlsPort: null, tls: { ...tls, source: 'bench' } });
  const bare = await bareServer(tls);
  const barePort = (bare.server.address() as AddressInfo).port;
  const from = `Bench <news@${domain}>`;
  try {
    const oursSamples: Samples[] = [];
    const baseline: Samples[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      baseline.push(await round(barePort, token, from));
      oursSamples.push(await round(ours.starttlsPort!, token, from));
    }
    return {
      name: `smtp-send, test-key messages over SMTP (${CONCURRENCY} pooled STARTTLS connections, ${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s)`,
      ours: pool(oursSamples),
      baseline: pool(baseline),
      goalRatio: 0.5,
      baselineLabel: 'bare smtp-server: same TLS and AUTH, accepts and discards',
    };
  } finally {
    await ours.stop();
    await new Promise<void>((resolve) => bare.close(() => resolve()));
    await closeEmailRuntime(deps);
  }
}
