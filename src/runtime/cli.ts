import { ConfigError } from '../config';
import { ApiError } from '../http/errors';
import { temporalErrorText } from '../temporal/errorText';
import type { CommandIO } from './command';
import { COMMAND_ALIASES, COMMANDS } from './commands';
import { CliError, UsageError } from './errors';
import { commandHelpText, usageText } from './usage';

export const processIO: CommandIO = {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/**
 * Runs one subcommand and answers its exit code. Problems a user can fix (bad configuration, bad flags, an unknown
 * account) print a message without a stack trace: exit 1, or 2 for a bad command line.
 */
export async function runCli(argv: string[], io: CommandIO = processIO): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.out(usageText());
    return name === undefined ? 2 : 0;
  }
  const known = COMMAND_ALIASES[name] ?? name;
  const command = Object.hasOwn(COMMANDS, known) ? COMMANDS[known] : undefined;
  try {
    if (!command) throw new UsageError(`unknown command "${name}"`);
    if (args.includes('--help') || args.includes('-h')) {
      io.out(commandHelpText(command));
      return 0;
    }
    return await command.run(args, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`error: ${err.message}`);
      io.err('run `npm run cli -- help` for the commands and their flags');
      return err.exitCode;
    }
    if (err instanceof ConfigError) {
      io.err(err.message);
      return 1;
    }
    // A refusal of the product's own rules (a missing job, a job that cannot be replayed): its code, as the API answers it.
    if (err instanceof ApiError) {
      io.err(`error: ${err.code}: ${err.message}`);
      return 1;
    }
    if (err instanceof CliError) {
      io.err(`error: ${err.message}`);
      return err.exitCode;
    }
    // The first line carries the causes: a Temporal ServiceError keeps the server's reason only there.
    io.err(`error: ${temporalErrorText(err)}`);
    if (err instanceof Error && err.stack) io.err(err.stack);
    return 1;
  }
}
