import { loadConfig } from '../../config';
import { parseFlags } from '../args';
import { serviceLogger, type CommandIO } from '../command';
import { runStack } from '../stack';
import { refuseSecurityWithoutAddress, temporalSettingsOf } from '../temporal';

export async function run(args: string[], io: CommandIO): Promise<number> {
  const flags = parseFlags('start', args, { sandbox: { type: 'boolean', default: false } });
  const config = loadConfig(io.env);
  const temporal = temporalSettingsOf(io.env);
  if (!temporal.address) refuseSecurityWithoutAddress(temporal, 'a dev server');
  const logger = serviceLogger(config);
  return runStack(config, logger, io.out, { sandbox: flags.sandbox, temporal });
}
