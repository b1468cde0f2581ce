import { loadConfig } from '../../config';
import { DEFAULT_RETENTION_DAYS, SearchAttributeConflict, setupNamespace } from '../../temporal/namespaceSetup';
import { parseFlags } from '../args';
import type { Command } from '../command';
import { temporalFor } from '../connections';
import { CliError, UsageError } from '../errors';
import { connectTemporalUnchecked } from '../temporal';

function retentionDaysOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_RETENTION_DAYS;
  const days = Number(value);
  if (!Number.isInteger(days) || days < 1 || days > 3650)
    throw new UsageError(`temporal setup: --retention-days must be a whole number of days from 1 to 3650, got "${value}"`);
  return days;
}

export const temporalCommand: Command = {
  usage: 'temporal setup [--retention-days N]',
  summary:
    'Creates the namespace TEMPORAL_NAMESPACE on TEMPORAL_ADDRESS when missing (retention N days, default 7) and registers ' +
    'every search attribute the jobs use; prints what it created and what was already present. Safe to run again. ' +
    'Fails naming an attribute that exists with another type.',
  async run(args, io) {
    const [action, ...rest] = args;
    if (action !== 'setup')
      throw new UsageError(action ? `temporal: unknown action "${action}" (known: setup)` : 'temporal: missing action (known: setup)');
    const flags = parseFlags('temporal setup', rest, { 'retention-days': { type: 'string' } });
    const retentionDays = retentionDaysOf(flags['retention-days']);
    const config = loadConfig(io.env);
    const temporal = temporalFor('temporal setup', config);
    const client = await connectTemporalUnchecked(temporal.address, temporal.namespace);
    try {
      const lines = await setupNamespace(client, temporal.namespace, retentionDays);
      lines.forEach((line) => io.out(line));
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
