/** A command line the program cannot act on (unknown command or flag, bad flag value): exit code 2. */
export class UsageError extends Error {
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A problem the user can fix (missing variable, port taken, unknown account, unreachable data dir): exit code 1, no stack trace. */
export class CliError extends Error {
  readonly exitCode = 1;
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}
