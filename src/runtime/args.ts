import { parseArgs, type ParseArgsConfig } from 'node:util';
import { z } from 'zod';
import { UsageError } from './errors';

type Options = NonNullable<ParseArgsConfig['options']>;

/** `parseArgs` in strict mode, its errors turned into usage errors that name the command. */
export function parseFlags<T extends Options>(command: string, args: string[], options: T) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw new UsageError(`${command}: ${(err as Error).message}`);
  }
}

/** A flag the command cannot do without. */
export function required(command: string, flag: string, value: string | undefined): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`${command}: --${flag} is required`);
  return value.trim();
}

/** A flag that must name an id (a UUID): `--account`, `--key`. Answered lower-cased. */
export function requiredId(command: string, flag: string, value: string | undefined): string {
  const id = required(command, flag, value);
  if (!z.uuid().safeParse(id).success) {
    throw new UsageError(`${command}: --${flag} "${id}" is not ${flag === 'account' ? 'an account' : `a ${flag}`} id (a UUID)`);
  }
  return id.toLowerCase();
}
