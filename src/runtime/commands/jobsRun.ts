import { jobIndexRecorder } from '../../jobs/jobIndexWrites';
import { listIndexedJobs } from '../../jobs/jobIndex';
import { JobListQuery } from '../../jobs/schemas';
import { replayJob } from '../../jobs/replayService';
import { cancelJob, getJob } from '../../jobs/service';
import { loadConfig, type Config } from '../../config';
import type { TemporalDeps } from '../../deps';
import type { Knex } from '../../db/knex';
import { createMetrics } from '../../http/metrics';
import type { Job, JobSummary } from '../../temporal/jobJson';
import { withAdminDb } from '../adminDb';
import { parseFlags, required, requiredId } from '../args';
import { commandLogger, type CommandIO } from '../command';
import { temporalFor } from '../connections';
import { UsageError } from '../errors';
import { withSecretHashKey } from '../secretHashKey';
import { connectTemporalChecked } from '../temporal';

export async function run(args: string[], io: CommandIO): Promise<number> {
  const [action, ...rest] = args;
  if (action === 'list') return listJobs(rest, io);
  if (action === 'get' || action === 'cancel' || action === 'replay') return actOnJob(action, rest, io);
  throw new UsageError(
    action
      ? `jobs: unknown action "${action}" (known: list, get, cancel, replay)`
      : 'jobs: missing action (known: list, get, cancel, replay)',
  );
}

async function listJobs(args: string[], io: CommandIO): Promise<number> {
  const flags = parseFlags('jobs list', args, {
    account: { type: 'string' },
    kind: { type: 'string' },
    status: { type: 'string' },
    'content-id': { type: 'string' },
    tag: { type: 'string' },
    limit: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const accountId = requiredId('jobs list', 'account', flags.account);
  const parsed = JobListQuery.safeParse({
    kind: flags.kind,
    status: flags.status,
    content_id: flags['content-id'],
    tag: flags.tag,
    limit: flags.limit,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`jobs list: --${String(issue.path[0]).replace('_', '-')}: ${issue.message}`);
  }
  const { config } = await withSecretHashKey(loadConfig(io.env));
  // The index answers without Temporal, as GET /api/jobs does: links need only the namespace and the UI's address.
  const page = await withAdminDb('jobs list', config, (db) =>
    listIndexedJobs(
      { db, temporal: { namespace: config.TEMPORAL_NAMESPACE, uiUrl: config.TEMPORAL_UI_URL }, secretHashKey: config.SECRET_HASH_KEY! },
      accountId,
      parsed.data,
    ),
  );
  if (flags.json) io.out(JSON.stringify(page));
  else if (page.data.length === 0) io.out(`no jobs of account ${accountId} match`);
  else for (const job of page.data) io.out(summaryLine(job));
  if (!flags.json && page.has_more) io.out(`… more: raise --limit (at most 100) or narrow the filters`);
  return 0;
}

async function actOnJob(action: 'get' | 'cancel' | 'replay', args: string[], io: CommandIO): Promise<number> {
  const command = `jobs ${action}`;
  const flags = parseFlags(command, args, {
    account: { type: 'string' },
    job: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const accountId = requiredId(command, 'account', flags.account);
  const id = required(command, 'job', flags.job);
  const config = loadConfig(io.env);
  const target = temporalFor(command, config, io.env);
  const client = await connectTemporalChecked(target);
  try {
    const job = await withAdminDb(command, config, async (db) => {
      const temporal = withClient(config, db, client, target.namespace);
      if (action === 'get') return getJob(temporal, accountId, id);
      if (action === 'cancel') return cancelJob(temporal, accountId, id);
      return replayJob(temporal, createMetrics(false), { accountId, id, requestId: `cli-${Date.now()}` });
    });
    io.out(flags.json ? JSON.stringify(job) : jobText(action, job));
    return 0;
  } finally {
    await client.connection.close();
  }
}

function withClient(config: Config, db: Knex, client: TemporalDeps['client'], namespace: string): TemporalDeps {
  return {
    client,
    namespace,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    uiUrl: config.TEMPORAL_UI_URL,
    // A replay is listed at once, as one the API starts is.
    jobIndex: jobIndexRecorder(db, commandLogger(config)),
  };
}

function summaryLine(job: JobSummary): string {
  const closed = job.closed_at ? `closed ${job.closed_at}` : `started ${job.created_at}`;
  return `${job.id}  ${job.status}  ${closed}${job.tags.length ? `  [${job.tags.join(', ')}]` : ''}`;
}

function jobText(action: 'get' | 'cancel' | 'replay', job: Job): string {
  const head = action === 'replay' ? `started ${job.id} (a replay)` : action === 'cancel' ? `asked ${job.id} to stop` : job.id;
  return [`${head}: ${job.status}`, ...(job.links.temporal_ui ? [`  Temporal UI: ${job.links.temporal_ui}`] : [])].join('\n');
}
