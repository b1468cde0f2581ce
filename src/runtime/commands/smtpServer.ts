import { loadedRun, type Command } from '../command';

export const smtpServerCommand: Command = {
  usage: 'smtp-server [--sandbox]',
  summary:
    'SMTP submission alone (scale it out beside `api`): SMTP_SUBMISSION_PORT (STARTTLS) and SMTP_SUBMISSION_TLS_PORT (implicit TLS), ' +
    'AUTH with SMTP_SUBMISSION_USER and an email API key. Needs DATABASE_URL and TEMPORAL_ADDRESS; run `migrate` first. ' +
    '--sandbox sends live-key mail to a catch-all SMTP relay on loopback instead of SMTP_URL.',
  run: loadedRun((): typeof import('./smtpServerRun') => require('./smtpServerRun')),
};
