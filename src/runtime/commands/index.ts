import type { Command } from '../command';
import { accountCommand } from './account';
import { apiCommand } from './api';
import { bundleCommand } from './bundle';
import { jobsCommand } from './jobs';
import { keyCommand } from './key';
import { migrateCommand } from './migrate';
import { schedulesCommand } from './schedules';
import { smtpServerCommand } from './smtpServer';
import { startCommand } from './start';
import { temporalCommand } from './temporal';
import { workerCommand } from './worker';

/** The other number of a command's name: `accounts list` is `account list`. */
export const COMMAND_ALIASES: Record<string, string> = { accounts: 'account', keys: 'key', job: 'jobs' };

/** Every subcommand of `src/main.ts`, in the order `help` lists them. */
export const COMMANDS: Record<string, Command> = {
  start: startCommand,
  api: apiCommand,
  worker: workerCommand,
  'smtp-server': smtpServerCommand,
  migrate: migrateCommand,
  schedules: schedulesCommand,
  temporal: temporalCommand,
  account: accountCommand,
  key: keyCommand,
  jobs: jobsCommand,
  bundle: bundleCommand,
};
