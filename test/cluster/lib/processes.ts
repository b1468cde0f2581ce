import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export interface LaunchSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  logPath: string;
}

/**
 * Starts a server process in a process group of its own, output appended to its log file, not tied to this process:
 * it keeps running when the launcher exits, and stopping it means signalling the group.
 */
export function launch(spec: LaunchSpec): number {
  const log = openSync(spec.logPath, 'a');
  try {
    const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, detached: true, stdio: ['ignore', log, log] });
    if (child.pid === undefined) throw new Error(`could not start ${spec.command}`);
    child.on('error', () => undefined); // an exec failure shows up as a dead pid and in the log
    child.unref();
    return child.pid;
  } finally {
    closeSync(log);
  }
}

/** Alive and not a zombie (a child of a parent that has not reaped it yet counts as dead). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true; // no /proc: trust kill(0)
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, signal);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
    }
  }
}

async function exited(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

/** SIGKILL to the process and its group, then waits for it to be gone. */
export async function killNow(pid: number): Promise<void> {
  signalGroup(pid, 'SIGKILL');
  if (!(await exited(pid, 10_000))) throw new Error(`process ${pid} survived SIGKILL`);
}

/** SIGTERM (the server shuts down cleanly: leaves the membership ring, releases shards), SIGKILL after `graceMs`. */
export async function stopGracefully(pid: number, graceMs = 15_000): Promise<void> {
  if (!isAlive(pid)) return;
  signalGroup(pid, 'SIGTERM');
  if (await exited(pid, graceMs)) return;
  await killNow(pid);
}

/** Whether `pid` still runs `command` (a recorded pid may since have gone to another program). */
export function runs(pid: number, command: string): boolean {
  if (!isAlive(pid)) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] === command;
  } catch {
    return true;
  }
}
