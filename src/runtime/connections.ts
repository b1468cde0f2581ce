import type { Config } from '../config';
import { CliError } from './errors';
import { readRunningStack } from './stackFile';

/**
 * Where a command other than `start` finds Postgres and Temporal: DATABASE_URL / TEMPORAL_ADDRESS; outside production,
 * when they are unset, those of the all-in-one stack (`npm start`) running on the same DATA_DIR.
 */
export function databaseUrlFor(command: string, config: Config): string {
  if (config.DATABASE_URL) return config.DATABASE_URL;
  const stack = config.NODE_ENV === 'production' ? null : readRunningStack(config.DATA_DIR);
  if (stack?.databaseUrl) return stack.databaseUrl;
  throw new CliError(`DATABASE_URL: is required for \`${command}\`${hintFor(config)}`);
}

export function temporalFor(command: string, config: Config): { address: string; namespace: string } {
  if (config.TEMPORAL_ADDRESS) return { address: config.TEMPORAL_ADDRESS, namespace: config.TEMPORAL_NAMESPACE };
  const stack = config.NODE_ENV === 'production' ? null : readRunningStack(config.DATA_DIR);
  if (stack?.temporalAddress) return { address: stack.temporalAddress, namespace: stack.temporalNamespace ?? config.TEMPORAL_NAMESPACE };
  throw new CliError(`TEMPORAL_ADDRESS: is required for \`${command}\`${hintFor(config)}`);
}

function hintFor(config: Config): string {
  return config.NODE_ENV === 'production'
    ? ''
    : ` (or run it while \`npm start\` runs with the same DATA_DIR, ${config.DATA_DIR}, and it uses the stack's servers)`;
}
