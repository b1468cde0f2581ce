import { isIP } from 'node:net';
import type { SMTPServerAuthentication, SMTPServerSession } from 'smtp-server';
import type { Config } from '../../config';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { authenticateEmailKeyToken, type EmailKeyAuth } from '../keys/authenticate';
import { smtpError } from './replies';

/**
 * AUTH PLAIN / LOGIN: the user is the fixed SMTP_SUBMISSION_USER and the password the email API key, checked by the
 * same code as a REST request (keyring, revocation, scope `email:send`, the IP allowlist against the peer address).
 * Only over TLS, unless SMTP_SUBMISSION_ALLOW_INSECURE_LOOPBACK lets a loopback peer in without it. The server does
 * not even offer AUTH before TLS (server.ts), so this check only backs that up.
 */
export async function authenticateSubmission(
  deps: AppDeps,
  auth: SMTPServerAuthentication,
  session: SMTPServerSession,
): Promise<EmailKeyAuth> {
  const config = deps.config;
  if (!session.secure && !insecureAuthAllowed(config, session.remoteAddress)) {
    throw smtpError('encryption_required', 'use STARTTLS (or port 465) before AUTH');
  }
  if (auth.method !== 'PLAIN' && auth.method !== 'LOGIN') throw smtpError('invalid_api_key', 'use AUTH PLAIN or LOGIN');
  if (auth.username !== config.SMTP_SUBMISSION_USER) {
    throw new ApiError(401, 'invalid_api_key', `the user name is ${config.SMTP_SUBMISSION_USER} and the password an email API key`);
  }
  try {
    return await authenticateEmailKeyToken('email:send', auth.password ?? null, session.remoteAddress, deps);
  } catch (err) {
    // REST's message speaks of an Authorization header; say it the SMTP way.
    if (err instanceof ApiError && err.code === 'invalid_api_key') {
      throw new ApiError(401, 'invalid_api_key', 'the password must be a valid email API key (svc_test_... or svc_live_...)');
    }
    throw err;
  }
}

/** The local-development override: AUTH without TLS, for a loopback peer only and only when configured. */
export function insecureAuthAllowed(config: Pick<Config, 'SMTP_SUBMISSION_ALLOW_INSECURE_LOOPBACK'>, remoteAddress: string): boolean {
  return config.SMTP_SUBMISSION_ALLOW_INSECURE_LOOPBACK && isLoopback(remoteAddress);
}

export function isLoopback(address: string): boolean {
  const ip = address.replace(/^::ffff:/i, '');
  return isIP(ip) === 4 ? ip.startsWith('127.') : ip === '::1';
}
