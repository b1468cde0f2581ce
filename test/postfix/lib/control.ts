import type { PostfixBinaries } from './availability';
import { logTail, postfixCommand } from './commands';
import { LISTEN_HOST, type PostfixLayout } from './config';
import { parsePostqueueJson, type QueueEntry } from './queue';
import { refusesConnections, smtpGreets, waitUntil } from './smtpProbe';

/** The Postfix commands of one instance, each waiting for what it promises. */
export interface PostfixControl {
  running(): Promise<boolean>;
  /** `postfix check`, `postfix start`, then until the SMTP port greets. */
  start(): Promise<void>;
  /** `postfix stop`, then until the master is gone and the SMTP port refuses connections. */
  stop(): Promise<void>;
  queue(): Promise<QueueEntry[]>;
  flush(): Promise<void>;
}

export function postfixControl(binaries: PostfixBinaries, layout: PostfixLayout, port: () => number): PostfixControl {
  const run = (binary: string, args: string[]) => postfixCommand(binary, layout.configDir, args, layout.logPath);
  const failure = async (what: string) => new Error(`${what}; ${layout.logPath} ends:\n${await logTail(layout.logPath)}`);
  const running = () =>
    run(binaries.postfix, ['status']).then(
      () => true,
      () => false,
    );
  return {
    running,
    async start() {
      await run(binaries.postfix, ['check']);
      await run(binaries.postfix, ['start']);
      if (!(await waitUntil(() => smtpGreets(LISTEN_HOST, port()), 30_000))) {
        throw await failure(`Postfix started but ${LISTEN_HOST}:${port()} does not greet`);
      }
    },
    async stop() {
      if (!(await running())) return;
      await run(binaries.postfix, ['stop']);
      const gone = async () => !(await running()) && (await refusesConnections(LISTEN_HOST, port()));
      if (!(await waitUntil(gone, 20_000))) throw await failure(`Postfix in ${layout.dir} still runs after postfix stop`);
    },
    queue: async () => parsePostqueueJson(await run(binaries.postqueue, ['-j'])),
    async flush() {
      await run(binaries.postqueue, ['-f']);
    },
  };
}
