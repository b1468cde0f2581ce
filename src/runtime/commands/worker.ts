import { loadedRun, type Command } from '../command';

export const workerCommand: Command = {
  usage: 'worker',
  summary:
    'The Temporal worker alone (workflows and activities on TEMPORAL_TASK_QUEUE). Needs DATABASE_URL and TEMPORAL_ADDRESS; ' +
    'uses WORKFLOW_BUNDLE_PATH when set, else bundles workflows/ at start. Serves Prometheus metrics on HOST:METRICS_PORT/metrics ' +
    '(default 9464; 0 = off).',
  run: loadedRun((): typeof import('./workerRun') => require('./workerRun')),
};
