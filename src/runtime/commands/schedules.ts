import { loadConfig } from '../../config';
import { parseFlags } from '../args';
import type { Command } from '../command';
import { temporalFor } from '../connections';
import { UsageError } from '../errors';
import { syncAllSchedules } from '../schedules';
import { connectTemporalChecked } from '../temporal';

export const schedulesCommand: Command = {
  usage: 'schedules sync',
  summary:
    'Makes the Temporal Schedules match the table in src/app/schedules.ts (creates, updates, deletes) ' +
    'for TEMPORAL_TASK_QUEUE, and prints what changed.',
  async run(args, io) {
    const [action, ...rest] = args;
    if (action !== 'sync')
      throw new UsageError(action ? `schedules: unknown action "${action}" (known: sync)` : 'schedules: missing action (known: sync)');
    parseFlags('schedules sync', rest, {});
    const config = loadConfig(io.env);
    const temporal = temporalFor('schedules sync', config, io.env);
    const client = await connectTemporalChecked(temporal);
    try {
      const { summary } = await syncAllSchedules(client, config.TEMPORAL_TASK_QUEUE);
      io.out(
        `schedules synced on ${temporal.address} (namespace ${temporal.namespace}, task queue ${config.TEMPORAL_TASK_QUEUE}): ${summary}`,
      );
      return 0;
    } finally {
      await client.connection.close();
    }
  },
};
