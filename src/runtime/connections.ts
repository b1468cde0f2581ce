import type { Config } from '../config';
import { CliError } from './errors';
import { readRunningStack } from './stackFile';
import { refuseSecurityWithoutAddress, temporalSettingsOf, type TemporalTarget } from './temporal';

/**
 * Where a command other than `start` finds Postgres and Temporal: DATABASE_URL / TEMPORAL_ADDRESS (or a Temporal profile); outside production,
 * when they are unset, those of the all-in-one stack (`npm start`) running on the same DATA_DIR.
 */
export function databaseUrlFor(command: string, config: Config): string {
  if (config.DATABASE_URL) return config.DATABASE_URL;
  const stack = config.NODE_ENV === 'production' ? null : readRunningStack(config.DATA_DIR);
  if (stack?.databaseUrl) return stack.databaseUrl;
  throw new CliError(`DATABASE_URL: is required for \`${command}\`${hintFor(config)}`);
}

/** `env`'s Temporal connection (address, namespace, TLS, API key: src/temporal/connectionConfig.ts), as for databaseUrlFor. */
export function temporalFor(command: string, config: Config, env: NodeJS.ProcessEnv): TemporalTarget {
  const settings = temporalSettingsOf(env);
  if (settings.address) return { address: settings.address, namespace: settings.namespace, security: settings.security };
  const stack = config.NODE_ENV === 'production' ? null : readRunningStack(config.DATA_DIR);
  if (stack?.temporalAddress) {
    refuseSecurityWithoutAddress(settings, `the running stack's dev server (${stack.temporalAddress})`);
    return { address: stack.temporalAddress, namespace: stack.temporalNamespace ?? settings.namespace, security: settings.security };
  }
  throw new CliError(`TEMPORAL_ADDRESS: is required for \`${command}\`${hintFor(config)}`);
}

function hintFor(config: Config): string {
  return config.NODE_ENV === 'production'
    ? ''
    : ` (or run it while \`npm start\` runs with the same DATA_DIR, ${config.DATA_DIR}, and it uses the stack's servers)`;
}
