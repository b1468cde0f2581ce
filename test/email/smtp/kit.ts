import assert from 'node:assert/strict';
import { createTransport, type SendMailOptions, type Transporter } from 'nodemailer';
import type { Config } from '../../../src/config';
import { startSubmissionServer, type SubmissionServer } from '../../../src/email/smtp/server';
import { selfSigned } from '../../../src/email/smtp/tls';
import { startSendWorld, type SendWorld } from '../send/kit';
import { openDialogue, plainAuth, type Dialogue, type WireReply } from './dialogue';

export { emailKey, eventRows, FROM, messageRows, SENDER_DOMAIN, senderAccount, sleep, verifiedDomain } from '../send/kit';

export const SMTP_USER = 'workyard';
let cert: { cert: string; key: string } | undefined;

/** The API app (for key management) and SMTP submission on its deps, both ports on loopback, the sandbox relay behind. */
export interface SmtpWorld extends SendWorld {
  submission: SubmissionServer;
}

export async function startSmtpWorld(config: Partial<Config> = {}): Promise<SmtpWorld> {
  const world = await startSendWorld({ config: { SMTP_SUBMISSION_USER: SMTP_USER, ...config } });
  cert ??= await selfSigned();
  const submission = await startSubmissionServer(world.app.deps, {
    host: '127.0.0.1',
    starttlsPort: 0,
    tlsPort: 0,
    tls: { ...cert, source: 'test' },
    closeTimeoutMs: 50,
  });
  return {
    ...world,
    submission,
    close: async () => {
      await submission.stop();
      await world.close();
    },
  };
}

/** A nodemailer client of the STARTTLS port (or implicit TLS with `secure`), trusting the self-signed certificate. */
export function client(world: SmtpWorld, pass: string, options: Record<string, unknown> = {}): Transporter {
  const secure = options.secure === true;
  return createTransport({
    host: '127.0.0.1',
    port: secure ? world.submission.tlsPort! : world.submission.starttlsPort!,
    secure,
    requireTLS: !secure,
    auth: { user: SMTP_USER, pass },
    tls: { rejectUnauthorized: false },
    ...options,
  });
}

/** A minimal valid message (from the verified sender domain). */
export function mail(overrides: SendMailOptions = {}): SendMailOptions {
  return { from: 'Acme Support <support@mail.example.test>', to: 'jane@customer.test', subject: 'Hello', text: 'Hi Jane', ...overrides };
}

/** Sends one message on a new connection; answers the 250 reply or the refusal. */
export async function submit(world: SmtpWorld, pass: string, message: SendMailOptions, options: Record<string, unknown> = {}) {
  const transport = client(world, pass, options);
  try {
    const info = await transport.sendMail(message);
    return { ok: true as const, response: String(info.response), info };
  } catch (err) {
    const e = err as { responseCode?: number; response?: string; message: string };
    return { ok: false as const, code: e.responseCode, response: e.response ?? e.message };
  } finally {
    transport.close();
  }
}

/** Asserts a refusal with `code` and an enhanced status starting the text, and that `apiCode` is named. */
export function assertRefused(result: Awaited<ReturnType<typeof submit>>, code: number, enhanced: string, apiCode?: string): void {
  assert.equal(result.ok, false, `expected ${code}, got ${result.response}`);
  if (result.ok) return;
  assert.equal(result.code, code, result.response);
  assert.match(result.response, new RegExp(`^${code} ${enhanced.replace(/\./g, '\\.')} `), result.response);
  if (apiCode) assert.match(result.response, new RegExp(apiCode), result.response);
}

/** The `id=` of a 250 reply. */
export function idOf(response: string): string {
  const match = /id=([0-9a-f-]{36})/.exec(response);
  assert.ok(match, response);
  return match[1];
}

/** A raw dialogue on the STARTTLS port, past the banner, EHLO, STARTTLS, EHLO again and AUTH PLAIN with `pass`. */
export async function authedDialogue(world: SmtpWorld, pass: string): Promise<{ dialogue: Dialogue; ehlo: WireReply }> {
  const dialogue = await openDialogue(world.submission.starttlsPort!);
  try {
    await dialogue.reply();
    await dialogue.command('EHLO client.test');
    await dialogue.startTls();
    const ehlo = await dialogue.command('EHLO client.test');
    const auth = await dialogue.command(plainAuth(SMTP_USER, pass));
    assert.equal(auth.code, 235, auth.lines.join(' | '));
    return { dialogue, ehlo };
  } catch (err) {
    dialogue.close();
    throw err;
  }
}
