import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../..');
const MAIN = path.join(REPO_ROOT, 'src/main.ts');

/** The environment of a child: this process's, without the variables a test must choose, plus the test's own. */
export function childEnv(overrides: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'info' };
  for (const name of [
    'DATABASE_URL',
    'TEMPORAL_ADDRESS',
    'TEMPORAL_NAMESPACE',
    'SECRET_HASH_KEY',
    'CRON_SECRET',
    'AGENT_SECRET',
    'PORT',
    'HOST',
    'DATA_DIR',
    'WORKFLOW_BUNDLE_PATH',
  ]) {
    delete env[name];
  }
  for (const [name, value] of Object.entries(overrides)) if (value !== undefined) env[name] = value;
  return env;
}

/** `src/main.ts` as its own process, the way `npm run cli --` runs it (tsx loads the TypeScript). */
export function spawnMain(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a one-shot command to its end. */
export function runMain(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<Finished> {
  const child = spawnMain(args, env);
  return collect(child, timeoutMs);
}

export function collect(child: ChildProcess, timeoutMs: number): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`child did not finish within ${timeoutMs} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** A long-running child whose output is kept, and a way to wait for a line of it. */
export class RunningMain {
  stdout = '';
  stderr = '';
  readonly exited: Promise<Finished>;
  private readonly child: ChildProcess;

  constructor(args: string[], env: NodeJS.ProcessEnv) {
    this.child = spawnMain(args, env);
    this.child.stdout!.on('data', (chunk) => {
      this.stdout += chunk;
    });
    this.child.stderr!.on('data', (chunk) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => {
      this.child.on('close', (code, signal) => resolve({ code, signal, stdout: this.stdout, stderr: this.stderr }));
    });
  }

  /** The first match of `pattern` in stdout, waiting for it up to `timeoutMs`; fails early when the child exits. */
  async waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    void this.exited.then(() => {
      exited = true;
    });
    for (;;) {
      const match = this.stdout.match(pattern);
      if (match) return match;
      if (exited || Date.now() > deadline) {
        throw new Error(
          `${exited ? 'child exited' : 'timed out'} before printing ${pattern}\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** Ends it for good (a test that failed half-way must not leave servers behind). */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
      await this.exited;
      clearTimeout(timer);
    }
  }
}

const tempDirs: string[] = [];

/** A fresh directory others may enter (mode 0755), as the embedded server's `postgres` user must when run as root. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  await chmod(dir, 0o755);
  return dir;
}

/** Removes the directories `tempDir` made; for `after` hooks. */
export async function removeTempDirs(): Promise<void> {
  await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** Command lines of the processes that mention `text` (e.g. a DATA_DIR), read from /proc. */
export function processesMentioning(text: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      if (cmdline.includes(text)) found.push(`${entry}: ${cmdline}`);
    } catch {
      // exited meanwhile
    }
  }
  return found;
}
