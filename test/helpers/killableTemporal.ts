import { spawn, type ChildProcess } from 'node:child_process';
import { Connection } from '@temporalio/client';
import { freePort } from '../../src/dev/ports';
import { findTemporalCli } from '../../src/dev/temporalCli';
import { DYNAMIC_CONFIG } from '../../src/dev/temporalDevServer';
import { SEARCH_ATTRIBUTE_KEYS } from '../../src/temporal/searchAttributes';

/** A Temporal dev server of its own, as a child process this test can SIGKILL and start again on the same file. */
export interface KillableTemporal {
  address: string;
  namespace: string;
  /** SIGKILL, then wait for the exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port and SQLite file; resolves once it answers. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const CLI_TYPES: Record<string, string> = { KEYWORD: 'Keyword', KEYWORD_LIST: 'KeywordList', TEXT: 'Text', INT: 'Int', BOOL: 'Bool' };

export async function startKillableTemporal(dbFilename: string): Promise<KillableTemporal> {
  const cli = await findTemporalCli();
  if (!cli) throw new Error('no Temporal CLI binary (see .ci/run)');
  const port = await freePort(0);
  const address = `127.0.0.1:${port}`;
  const args = [
    'server',
    'start-dev',
    '--headless',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--db-filename',
    dbFilename,
    '--log-level',
    'error',
    ...SEARCH_ATTRIBUTE_KEYS.flatMap((key) => ['--search-attribute', `${key.name}=${CLI_TYPES[key.type]}`]),
    ...DYNAMIC_CONFIG.flatMap((value) => ['--dynamic-config-value', value]),
  ];
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let output = '';

  async function start() {
    child = spawn(cli!.path, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
    child.stderr!.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
    const running = child;
    exited = new Promise((resolve) => running.once('exit', () => resolve()));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (running.exitCode !== null) throw new Error(`the Temporal dev server exited: ${output}`);
      try {
        const connection = await Connection.connect({ address, connectTimeout: 1_000 });
        try {
          await connection.workflowService.describeNamespace({ namespace: 'default' });
          return;
        } finally {
          await connection.close();
        }
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`the Temporal dev server did not answer: ${output}`, { cause: err });
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  }

  async function kill() {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  }

  await start();
  return { address, namespace: 'default', kill, restart: start, stop: kill };
}
