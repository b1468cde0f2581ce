import type { QueueFingerprint } from '../temporal/queueFingerprints';
import { differingProviders, type WorkerFingerprint } from '../temporal/workerFingerprint';
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
  /** The worker's provider settings (fingerprintLine), and the warning when other workers of its queue differ. */
  worker?: { line: string; warning?: string };
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
    ...(b.worker ? [`  Worker       ${b.worker.line}`] : []),
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
  if (b.worker?.warning) lines.push('', b.worker.warning);
  if (b.sandbox) lines.push('', ...b.sandbox);
  lines.push('', 'Press Ctrl-C to stop.', '');
  return lines;
}

/** `provider fingerprint 3f2a9c0b1d4e; set: model, search; unset: images, …` (names only, never a value). */
export function fingerprintLine(own: WorkerFingerprint): string {
  const names = (configured: boolean) =>
    Object.entries(own.providers)
      .filter(([, p]) => p.configured === configured)
      .map(([name]) => name)
      .join(', ') || 'none';
  return `provider fingerprint ${own.fingerprint}; set: ${names(true)}; unset: ${names(false)}`;
}

/**
 * The warning for workers of the same queue with other provider settings, naming the providers that differ when this
 * database knows the other fingerprint; undefined when every worker agrees.
 */
export function peerWarning(own: WorkerFingerprint, taskQueue: string, peers: QueueFingerprint[]): string | undefined {
  const others = peers.filter((p) => p.fingerprint !== own.fingerprint);
  if (!others.length) return undefined;
  const described = others.map((p) => {
    const who = `${p.workers} worker${p.workers === 1 ? '' : 's'}`;
    if (p.fingerprint === null) return `${who} without a fingerprint (another program or an older release)`;
    if (!p.providers) return `${who} with fingerprint ${p.fingerprint} (settings unknown to this database)`;
    return `${who} with fingerprint ${p.fingerprint} (differs in ${differingProviders(own.providers, p.providers).join(', ')})`;
  });
  return (
    `WARNING: task queue "${taskQueue}" is polled by workers with other provider settings than this one ` +
    `(fingerprint ${own.fingerprint}): ${described.join('; ')}. Any worker of the queue may take any job, so jobs fail ` +
    'on the workers that lack a provider (model_not_configured, commerce_not_configured, …). Give every worker of the ' +
    'queue the same provider settings.'
  );
}
