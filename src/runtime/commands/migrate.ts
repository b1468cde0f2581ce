import { loadConfig } from '../../config';
import { createDb, migrateLatest } from '../../db/knex';
import { parseFlags } from '../args';
import { commandLogger, type Command } from '../command';
import { databaseUrlFor } from '../connections';
import { ensureDatabaseExists, redactUrl } from '../database';

export const migrateCommand: Command = {
  usage: 'migrate',
  summary: 'Applies every pending migration (creating the database named in DATABASE_URL when missing) and prints what it applied.',
  async run(args, io) {
    parseFlags('migrate', args, {});
    const config = loadConfig(io.env);
    const logger = commandLogger(config);
    const url = databaseUrlFor('migrate', config);
    await ensureDatabaseExists(url, (msg) => logger.info(msg));
    const db = createDb(url, 2);
    try {
      const applied = await migrateLatest(db);
      io.out(
        applied.length
          ? `applied ${applied.length} migration(s) to ${redactUrl(url)}:\n${applied.map((name) => `  ${name}`).join('\n')}`
          : `nothing to apply: ${redactUrl(url)} is up to date`,
      );
      return 0;
    } finally {
      await db.destroy();
    }
  },
};
