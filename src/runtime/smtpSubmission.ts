import type { AppDeps } from '../deps';
import { startSubmissionServer, type SubmissionServer } from '../email/smtp/server';
import { submissionTls } from '../email/smtp/tls';
import { CliError } from './errors';

export interface RunningSubmission {
  server: SubmissionServer;
  tlsSource: string;
}

/**
 * The SMTP submission ports of the configuration (SMTP_SUBMISSION_PORT / _TLS_PORT; 0 turns one off), with the
 * configured certificate or the self-signed one in DATA_DIR. Null when both ports are off.
 */
export async function startSmtpSubmission(deps: AppDeps, dataDir: string): Promise<RunningSubmission | null> {
  const c = deps.config;
  const starttlsPort = c.SMTP_SUBMISSION_PORT || null;
  const tlsPort = c.SMTP_SUBMISSION_TLS_PORT || null;
  if (starttlsPort === null && tlsPort === null) return null;
  const tls = await submissionTls(c, dataDir);
  try {
    const server = await startSubmissionServer(deps, { host: c.SMTP_SUBMISSION_HOST, starttlsPort, tlsPort, tls });
    return { server, tlsSource: tls.source };
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { port?: number };
    const where = `${c.SMTP_SUBMISSION_HOST}:${e.port ?? `${starttlsPort ?? ''}/${tlsPort ?? ''}`}`;
    const fix = 'set SMTP_SUBMISSION_PORT / SMTP_SUBMISSION_TLS_PORT to free ports (e.g. 2587 and 2465), or 0 to turn one off';
    if (e.code === 'EADDRINUSE') throw new CliError(`SMTP submission: ${where} is already in use; ${fix}`);
    if (e.code === 'EACCES') throw new CliError(`SMTP submission: binding ${where} needs privileges; ${fix}`);
    if (e.code === 'EADDRNOTAVAIL') throw new CliError(`SMTP_SUBMISSION_HOST: ${c.SMTP_SUBMISSION_HOST} is not an address of this machine`);
    throw err;
  }
}

/** The banner lines: where to connect and with what. */
export function smtpBannerLines(running: RunningSubmission | null, user: string, problem?: string): string[] {
  if (!running) return [`  SMTP         ${problem ?? 'off (SMTP_SUBMISSION_PORT and SMTP_SUBMISSION_TLS_PORT are 0)'}`];
  const { server } = running;
  const host = server.host === '0.0.0.0' || server.host === '::' ? '127.0.0.1' : server.host;
  const ports = [
    server.starttlsPort !== null ? `${host}:${server.starttlsPort} (STARTTLS)` : null,
    server.tlsPort !== null ? `${host}:${server.tlsPort} (implicit TLS)` : null,
  ].filter(Boolean);
  return [
    `  SMTP         ${ports.join(', ')}; user "${user}", password an email API key (svc_test_… / svc_live_…)`,
    `               certificate: ${running.tlsSource}`,
  ];
}
