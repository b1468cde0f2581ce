import { loadedRun, type Command } from '../command';

const USAGE = [
  'jobs list --account ID [--kind KIND] [--status STATUS] [--content-id ID] [--tag TAG] [--limit N] [--json]',
  'jobs get --account ID --job JOB_ID [--json]',
  'jobs cancel --account ID --job JOB_ID [--json]',
  'jobs replay --account ID --job JOB_ID [--json]',
];

export const jobsCommand: Command = {
  // One help line per action (help indents every line of `usage` by two spaces).
  usage: USAGE.join('\n  '),
  summary:
    "An account's jobs, as its API routes show and act on them. list: from the job index, running first, then closed ones by " +
    'close time (GET /api/jobs; --limit 1–100, default 25). get: the job with its progress and result or error (GET ' +
    '/api/jobs/{id}). cancel: asks a running job to stop (POST /api/jobs/{id}/cancel). replay: starts a failed, canceled, ' +
    'timed-out or terminated job again as a new job (POST /api/jobs/{id}/replay). --json prints what the route answers. ' +
    'Needs DATABASE_URL; get, cancel and replay also TEMPORAL_ADDRESS (or the running `npm start` stack).',
  run: loadedRun((): typeof import('./jobsRun') => require('./jobsRun')),
};
