// The one entry point: `npm start` (all-in-one) and `npm run cli -- <command>` (api, worker, migrate, schedules,
// account, key, bundle, help). See src/runtime/commands/.
import { runCli } from './runtime/cli';

void runCli(process.argv.slice(2)).then((code) => process.exit(code));
