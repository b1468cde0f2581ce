// A private Postfix instance for tests, from Debian's package, started as root from a directory of its own (its
// config_directory, queue, data, mailboxes and maillog), listening on 127.0.0.1 only:
// - mail for MAILBOX_DOMAIN's users lands in maildirs the tests read; an unknown user there is refused at RCPT (550 5.1.1);
// - LATE_BOUNCE_DOMAIN is accepted, then bounced by Postfix (5.1.1): its own DSN goes back to the sender;
// - DEFERRED_DOMAIN is accepted and retried forever (4.4.1): delay notices when `delay_warning_time` is set;
// - the return-path domain goes to the host:port given, so Postfix's DSNs reach Workyard's return path (or a catcher);
// - any other domain bounces: nothing leaves the machine.
// Tests use startPostfix() (or usePostfix() in lib/mocha.ts); by hand:
//   node --import tsx test/postfix/launcher.ts start <dir> [returnPathPort]   (prints the SMTP URL)
//   node --import tsx test/postfix/launcher.ts stop <dir>
import { spawnSync } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { lowFreePorts } from '../cluster/lib/ports';
import { postfixAvailable, type PostfixBinaries } from './lib/availability';
import { logTail, postfixCommand } from './lib/commands';
import { layoutOf, LISTEN_HOST, MAILBOX_UID, mainCf, masterCf, tablesOf, type PostfixLayout, type PostfixSettings } from './lib/config';
import { postfixControl, type PostfixControl } from './lib/control';
import { readMaildir } from './lib/maildir';
import type { QueueEntry } from './lib/queue';
import { waitUntil } from './lib/smtpProbe';

export type { QueueEntry } from './lib/queue';
export { postfixAvailable } from './lib/availability';

export const MAILBOX_DOMAIN = 'postfix.workyard.test';
export const LATE_BOUNCE_DOMAIN = 'late.workyard.test';
export const DEFERRED_DOMAIN = 'slow.workyard.test';
export const RETURN_PATH_DOMAIN = 'returns.workyard.test';
export const DEFAULT_USERS = ['alice', 'bob', 'carol'];

export interface PostfixOptions {
  /** The instance's directory; a fresh temp directory when unset (destroy() removes only one it made). */
  dir?: string;
  /** SMTP port on 127.0.0.1; a free one below 32768 when unset. */
  port?: number;
  /** Users of MAILBOX_DOMAIN with a mailbox (default alice, bob, carol). */
  users?: string[];
  /** Where mail for the return-path domain (RETURN_PATH_DOMAIN unless named) goes: Postfix's DSNs among it. */
  returnPath?: { port: number; host?: string; domain?: string };
  /** More routes, domain → transport: `smtp:[127.0.0.1]:2600`, `error:5.7.1 no`, `retry:4.4.1 later`. */
  routes?: Record<string, string>;
  /** main.cf parameters over the defaults (lib/config.ts), e.g. `{ delay_warning_time: '1s' }` or milter settings. */
  main?: Record<string, string>;
  /** Stop the instance when this process exits (default true). */
  stopOnExit?: boolean;
}

export interface PostfixInstance {
  readonly host: string;
  readonly port: number;
  /** `smtp://127.0.0.1:<port>`, no TLS, no AUTH: what SMTP_URL or nodemailer takes. */
  readonly smtpUrl: string;
  readonly dir: string;
  readonly configDir: string;
  readonly queueDir: string;
  /** One maildir per user: `<mailboxDir>/<user>/{new,cur}`. */
  readonly mailboxDir: string;
  /** Postfix's log (maillog_file). */
  readonly logPath: string;
  /** `<user>@MAILBOX_DOMAIN`. */
  address(user: string): string;
  /** The raw messages delivered to a user so far, oldest first, as virtual(8) stored them: Return-Path, X-Original-To and
   * Delivered-To on top, LF line ends (make them CRLF again before checking a DKIM body hash). */
  readMailbox(user: string): Promise<Buffer[]>;
  /** Waits until the user has at least `count` messages; throws with the maillog's end after `timeoutMs`. */
  waitForMail(user: string, count?: number, timeoutMs?: number): Promise<Buffer[]>;
  /** The queue (`postqueue -j`); the instance must run. */
  queue(): Promise<QueueEntry[]>;
  queueIds(): Promise<string[]>;
  /** `postqueue -f`: retry every deferred message now. */
  flush(): Promise<void>;
  running(): Promise<boolean>;
  /** `postfix stop`; resolves once the SMTP port refuses connections. Queued mail stays queued. */
  stop(): Promise<void>;
  /** `postfix check` and `postfix start`; resolves once the SMTP port greets. */
  start(): Promise<void>;
  restart(): Promise<void>;
  /** The whole maillog. */
  log(): Promise<string>;
  /** Stops it and removes a directory it made. */
  destroy(): Promise<void>;
}

/** Instances to stop when this process exits without destroying them (a crashed run must not leave a master behind). */
const liveInstances = new Map<PostfixControl, () => void>();

function stopAtExit(control: PostfixControl, postfix: string, configDir: string): void {
  if (!process.listeners('exit').includes(stopLiveInstances)) process.on('exit', stopLiveInstances);
  liveInstances.set(control, () => spawnSync(postfix, ['-c', configDir, 'stop'], { stdio: 'ignore', timeout: 10_000 }));
}

function stopLiveInstances(): void {
  for (const stop of liveInstances.values()) stop();
}

function binariesOrThrow(): PostfixBinaries {
  const availability = postfixAvailable();
  if (!availability.ok) throw new Error(availability.reason);
  return availability.binaries;
}

/** The directory tree Postfix expects to find; `postfix check` fills in the queue with its owners and modes. */
async function prepareDirectory(layout: PostfixLayout): Promise<void> {
  for (const dir of [layout.configDir, layout.mailboxDir, layout.queueDir]) await mkdir(dir, { recursive: true });
  // Postfix's daemons run as the postfix user and must reach the queue directory; virtual(8) writes as MAILBOX_UID.
  await chmod(layout.dir, 0o755);
  await chown(layout.mailboxDir, MAILBOX_UID, MAILBOX_UID);
}

async function settingsOf(options: PostfixOptions): Promise<PostfixSettings> {
  const returnPathDomain = options.returnPath?.domain ?? RETURN_PATH_DOMAIN;
  return {
    port: options.port ?? (await lowFreePorts(1, LISTEN_HOST))[0],
    mailboxDomain: MAILBOX_DOMAIN,
    users: options.users ?? DEFAULT_USERS,
    routes: {
      [LATE_BOUNCE_DOMAIN]: 'error:5.1.1 user unknown',
      [DEFERRED_DOMAIN]: 'retry:4.4.1 mailbox temporarily unavailable',
      ...(options.returnPath ? { [returnPathDomain]: `smtp:[${options.returnPath.host ?? LISTEN_HOST}]:${options.returnPath.port}` } : {}),
      ...options.routes,
    },
    main: options.main ?? {},
  };
}

async function writeConfig(layout: PostfixLayout, settings: PostfixSettings): Promise<void> {
  await writeFile(path.join(layout.configDir, 'main.cf'), mainCf(layout, settings));
  await writeFile(path.join(layout.configDir, 'master.cf'), masterCf(settings.port));
  for (const [file, text] of Object.entries(tablesOf(layout, settings))) await writeFile(file, text);
}

/** A port picked free can be taken before the master binds it: then another, unless the caller fixed the port. */
async function firstStart(control: PostfixControl, layout: PostfixLayout, settings: PostfixSettings, portFixed: boolean): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await writeConfig(layout, settings);
    try {
      return await control.start();
    } catch (err) {
      const taken = /address already in use/i.test(await logTail(layout.logPath, 10));
      await control.stop().catch(() => undefined);
      if (!taken || portFixed || attempt === 3) throw err;
      settings.port = (await lowFreePorts(1, LISTEN_HOST))[0];
    }
  }
}

/** Writes the configuration into its directory and starts the instance; resolves once it greets on its port. */
export async function startPostfix(options: PostfixOptions = {}): Promise<PostfixInstance> {
  const binaries = binariesOrThrow();
  const dir = options.dir ? path.resolve(options.dir) : await mkdtemp(path.join(os.tmpdir(), 'wy-postfix-'));
  const layout = layoutOf(dir);
  await prepareDirectory(layout);
  const settings = await settingsOf(options);
  const control = postfixControl(binaries, layout, () => settings.port);
  await control.stop(); // a leftover instance in the same directory
  await firstStart(control, layout, settings, options.port !== undefined);
  const watchExit = () => {
    if (options.stopOnExit !== false) stopAtExit(control, binaries.postfix, layout.configDir);
  };
  watchExit();

  const userDir = (user: string) => {
    if (!settings.users.includes(user)) throw new Error(`${user} has no mailbox (users: ${settings.users.join(', ')})`);
    return path.join(layout.mailboxDir, user);
  };
  const stop = async () => {
    await control.stop();
    liveInstances.delete(control);
  };
  return {
    host: LISTEN_HOST,
    port: settings.port,
    smtpUrl: `smtp://${LISTEN_HOST}:${settings.port}`,
    dir,
    configDir: layout.configDir,
    queueDir: layout.queueDir,
    mailboxDir: layout.mailboxDir,
    logPath: layout.logPath,
    address: (user) => `${user}@${MAILBOX_DOMAIN}`,
    readMailbox: (user) => readMaildir(userDir(user)),
    async waitForMail(user, count = 1, timeoutMs = 15_000) {
      let messages: Buffer[] = [];
      if (await waitUntil(async () => (messages = await readMaildir(userDir(user))).length >= count, timeoutMs)) return messages;
      throw new Error(
        `${user} has ${messages.length} of ${count} messages after ${timeoutMs} ms; ${layout.logPath} ends:\n${await logTail(layout.logPath)}`,
      );
    },
    queue: control.queue,
    queueIds: async () => (await control.queue()).map((entry) => entry.id),
    flush: control.flush,
    running: control.running,
    stop,
    async start() {
      await control.start();
      watchExit();
    },
    async restart() {
      await control.stop();
      await control.start();
    },
    log: () => logTail(layout.logPath, Number.MAX_SAFE_INTEGER),
    async destroy() {
      await stop();
      if (!options.dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

async function main(argv: string[]): Promise<void> {
  const [command, dir, returnPathPort] = argv;
  if (!dir || (command !== 'start' && command !== 'stop')) {
    console.error('usage: node --import tsx test/postfix/launcher.ts start <dir> [returnPathPort] | stop <dir>');
    process.exitCode = 2;
    return;
  }
  const { configDir, logPath } = layoutOf(path.resolve(dir));
  if (command === 'stop') {
    const { postfix } = binariesOrThrow();
    await postfixCommand(postfix, configDir, ['stop'], logPath);
    const stopped = () =>
      postfixCommand(postfix, configDir, ['status'], logPath).then(
        () => false,
        () => true,
      );
    if (!(await waitUntil(stopped, 20_000))) throw new Error(`Postfix in ${path.resolve(dir)} still runs; see ${logPath}`);
    console.log(`Postfix in ${path.resolve(dir)} stopped`);
    return;
  }
  const returnPath = returnPathPort ? { port: Number(returnPathPort) } : undefined;
  const instance = await startPostfix({ dir, returnPath, stopOnExit: false });
  console.log(`Postfix listening at ${instance.smtpUrl}; mailboxes ${instance.mailboxDir}; log ${instance.logPath}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === __filename) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
