import { loadConfig } from '../../config';
import { createDb } from '../../db/knex';
import { closeEmailRuntime } from '../../email/keys/runtime';
import { closeRelays } from '../../email/send/transport';
import { startSmtpSandbox } from '../../sandbox/smtp';
import { buildAppDeps } from '../appDeps';
import { parseFlags } from '../args';
import { serviceLogger, type CommandIO } from '../command';
import { databaseUrlFor, temporalFor } from '../connections';
import { prepareDataDir } from '../dataDir';
import { withSecretHashKey } from '../secretHashKey';
import { runService } from '../service';
import { smtpBannerLines, startSmtpSubmission } from '../smtpSubmission';
import { connectTemporalChecked } from '../temporal';

export async function run(args: string[], io: CommandIO): Promise<number> {
  const flags = parseFlags('smtp-server', args, { sandbox: { type: 'boolean', default: false } });
  const { config: keyed } = await withSecretHashKey(loadConfig(io.env));
  const logger = serviceLogger(keyed);
  const databaseUrl = databaseUrlFor('smtp-server', keyed);
  const temporal = temporalFor('smtp-server', keyed, io.env);
  return runService(logger, async (lifecycle) => {
    const dataDir = await prepareDataDir(keyed.DATA_DIR);
    const relay = flags.sandbox ? await startSmtpSandbox() : null;
    if (relay) lifecycle.onShutdown('SMTP sandbox relay', () => relay.stop());
    const config = relay ? { ...keyed, SMTP_URL: relay.url } : keyed;
    const db = createDb(databaseUrl, config.DATABASE_POOL_MAX);
    lifecycle.onShutdown('database pool', () => db.destroy());
    const client = await connectTemporalChecked(temporal);
    lifecycle.onShutdown('Temporal client', () => client.connection.close());
    const deps = buildAppDeps({ config, logger, db, client, namespace: temporal.namespace, uiUrl: config.TEMPORAL_UI_URL });
    lifecycle.onShutdown('email key listener, usage flush and relay pool', async () => {
      await closeEmailRuntime(deps);
      closeRelays();
    });
    const smtp = await startSmtpSubmission(deps, dataDir);
    if (smtp) lifecycle.onShutdown('SMTP submission', () => smtp.server.stop());
    logger.info({ starttlsPort: smtp?.server.starttlsPort, tlsPort: smtp?.server.tlsPort }, 'SMTP submission running');
    const lines = smtpBannerLines(smtp, config.SMTP_SUBMISSION_USER);
    if (relay) lines.push(`  Sandbox      live-key mail goes to a catch-all relay on ${relay.url}; nothing leaves this machine`);
    lines.forEach((line) => io.out(line));
  });
}
