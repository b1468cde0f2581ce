import { loadedRun, type Command } from '../command';

export const apiCommand: Command = {
  usage: 'api',
  summary: 'The HTTP API alone (scale it out). Needs DATABASE_URL and TEMPORAL_ADDRESS; run `migrate` first.',
  run: loadedRun((): typeof import('./apiRun') => require('./apiRun')),
};
