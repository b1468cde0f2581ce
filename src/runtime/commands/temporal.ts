import { loadConfig, type Config } from '../../config';
import { createDb } from '../../db/knex';
import { DEFAULT_RETENTION_DAYS, SearchAttributeConflict, setupNamespace } from '../../temporal/namespaceSetup';
import { parseFlags } from '../args';
import type { Command } from '../command';
import { databaseUrlFor, temporalFor } from '../connections';
import { deploymentIdOf, recordDeploymentMarker, type MarkerTarget } from '../deploymentMarker';
import { CliError, UsageError } from '../errors';
import { connectTemporalUnchecked } from '../temporal';

function retentionDaysOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_RETENTION_DAYS;
  const days = Number(value);
  if (!Number.isInteger(days) || days < 1 || days > 3650)
    throw new UsageError(`temporal setup: --retention-days must be a whole number of days from 1 to 3650, got "${value}"`);
  return days;
}

/**
 * The deployment marker line. Without a database (DATABASE_URL unset, not migrated yet, unreachable) the marker is
 * left to the first worker or API start, which claims it, unless `--claim` asks for it now.
 */
async function markerLine(target: MarkerTarget, config: Config, claim: boolean): Promise<string> {
  let databaseUrl: string;
  try {
    databaseUrl = databaseUrlFor('temporal setup --claim', config);
  } catch (err) {
    if (claim) throw err;
    return `deployment marker: not recorded (DATABASE_URL is unset); the first worker or API start records it`;
  }
  const db = createDb(databaseUrl, 1);
  let deploymentId: string;
  try {
    deploymentId = await deploymentIdOf(db);
  } catch (err) {
    if (claim) throw err;
    return `deployment marker: not recorded (${(err as Error).message}); the first worker or API start records it`;
  } finally {
    await db.destroy();
  }
  return recordDeploymentMarker(target, deploymentId, claim);
}

export const temporalCommand: Command = {
  usage: 'temporal setup [--retention-days N] [--claim]',
  summary:
    'Creates the namespace TEMPORAL_NAMESPACE on TEMPORAL_ADDRESS when missing (retention N days, default 7) and registers ' +
    'every search attribute the jobs use; prints what it created and what was already present. Safe to run again. ' +
    'Fails naming an attribute that exists with another type. Records the database of DATABASE_URL as the deployment that ' +
    'owns TEMPORAL_TASK_QUEUE on the namespace, and stops when another deployment owns it; --claim takes the queue over ' +
    '(when that deployment is gone).',
  async run(args, io) {
    const [action, ...rest] = args;
    if (action !== 'setup')
      throw new UsageError(action ? `temporal: unknown action "${action}" (known: setup)` : 'temporal: missing action (known: setup)');
    const flags = parseFlags('temporal setup', rest, { 'retention-days': { type: 'string' }, claim: { type: 'boolean' } });
    const retentionDays = retentionDaysOf(flags['retention-days']);
    const config = loadConfig(io.env);
    const temporal = temporalFor('temporal setup', config, io.env);
    const client = await connectTemporalUnchecked(temporal);
    try {
      const lines = await setupNamespace(client, temporal.namespace, retentionDays);
      lines.forEach((line) => io.out(line));
      const target = { client, address: temporal.address, namespace: temporal.namespace, taskQueue: config.TEMPORAL_TASK_QUEUE };
      io.out(await markerLine(target, config, flags.claim ?? false));
      io.out(`Temporal at ${temporal.address}, namespace ${temporal.namespace}: ready`);
      return 0;
    } catch (err) {
      if (err instanceof SearchAttributeConflict) {
        throw new CliError(
          `namespace ${temporal.namespace} on ${temporal.address}: ${err.message}. A search attribute's type cannot be changed: ` +
            'remove it (temporal operator search-attribute remove) or use another namespace.',
        );
      }
      throw err;
    } finally {
      await client.connection.close();
    }
  },
};
