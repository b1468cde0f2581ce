import pino from 'pino';
import type { Config } from '../config';
import { createLogger, type Logger } from '../logger';

/** Where a command writes: `out` is its result (stdout), `err` its diagnostics (stderr). */
export interface CommandIO {
  env: NodeJS.ProcessEnv;
  out(line: string): void;
  err(line: string): void;
}

export interface Command {
  /** e.g. `key create --account ID …`, shown by `help`. */
  usage: string;
  summary: string;
  run(args: string[], io: CommandIO): Promise<number>;
}

/**
 * A command's `run` from a module loaded when the command runs: `help` and the one-shot commands then load only what
 * they use, not the API, the worker and the bundler.
 */
export function loadedRun(load: () => { run: Command['run'] }): Command['run'] {
  return (args, io) => load().run(args, io);
}

/** Long-running processes log to stdout (a container's log); one-shot commands keep stdout for their result. */
// Synchronous writes: the last lines of a shutdown must reach the log before the process exits.
export function serviceLogger(config: Config): Logger {
  return createLogger(config.LOG_LEVEL, pino.destination({ dest: 1, sync: true }));
}

export function commandLogger(config: Config): Logger {
  return createLogger(config.LOG_LEVEL, pino.destination({ dest: 2, sync: true }));
}
