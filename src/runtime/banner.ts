import type { FirstAccount } from './firstAccount';

export interface BannerInput {
  apiUrl: string;
  uiUrl?: string;
  database: string;
  temporal: string;
  taskQueue: string;
  dataDir: string;
  secretKeySource: string;
  firstAccount: FirstAccount;
  cronSecretSet: boolean;
  startedInMs: number;
  /** SMTP submission: its ports and user (runtime/smtpSubmission.ts). */
  smtp?: string[];
  /** `start --sandbox`: where the simulators are and how to connect the demo shop and the demo site. */
  sandbox?: string[];
}

/** What a person needs after `npm start`: where things are and, on the first start only, the credentials. */
export function bannerLines(b: BannerInput): string[] {
  const lines = [
    '',
    `Workyard is running (started in ${(b.startedInMs / 1000).toFixed(1)} s)`,
    `  API          ${b.apiUrl}   (docs ${b.apiUrl}/docs, OpenAPI ${b.apiUrl}/openapi.json)`,
    `  Temporal UI  ${b.uiUrl ?? 'unknown (set TEMPORAL_UI_URL)'}`,
    `  Postgres     ${b.database}`,
    `  Temporal     ${b.temporal}, task queue ${b.taskQueue}`,
    `  Data dir     ${b.dataDir} (credential hash key: ${b.secretKeySource})`,
    ...(b.smtp ?? []),
    '',
  ];
  const { firstAccount: first } = b;
  if (first.created) {
    lines.push(
      `First start: created the account "${first.account.name}" (id ${first.account.id}) with the owner ${first.ownerEmail}.`,
      `  Owner session token (dashboard routes):  ${first.ownerToken}`,
      `  Agent key (every permission):           ${first.agentKey}`,
      '  Shown this once: only their hashes are stored. Send them as "Authorization: Bearer <token>".',
      `  More keys: npm run cli -- key create --account ${first.account.id} --name <name> --permissions all`,
    );
  } else if (!first.account) {
    lines.push('No account yet (none is made automatically in production): npm run cli -- account create --name <name>');
  } else {
    lines.push(
      `Account "${first.account.name}" (id ${first.account.id}) exists; its credentials were shown on the first start.`,
      `  New agent key: npm run cli -- key create --account ${first.account.id} --name <name> --permissions all`,
      '  New account:   npm run cli -- account create --name <name>',
    );
  }
  if (!b.cronSecretSet)
    lines.push('', 'CRON_SECRET is unset: the /api/cron/* "run now" routes answer 401 until it is set (32+ characters).');
  if (b.sandbox) lines.push('', ...b.sandbox);
  lines.push('', 'Press Ctrl-C to stop.', '');
  return lines;
}
