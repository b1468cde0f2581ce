import { loadedRun, type Command } from '../command';

export const startCommand: Command = {
  usage: 'start [--sandbox]',
  summary:
    'Everything in one process: Postgres (embedded unless DATABASE_URL), Temporal (dev server unless TEMPORAL_ADDRESS), ' +
    'migrations, schedule sync, the worker and the API. Data persists in DATA_DIR. `npm start` runs this. ' +
    '--sandbox also runs simulators on loopback: the commerce platform (a demo app and shop) and the site platform (a demo ' +
    'OAuth client and site), the research providers, DNS and SMTP; token keys are generated into DATA_DIR if unset.',
  run: loadedRun((): typeof import('./startRun') => require('./startRun')),
};
