import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Where a running all-in-one stack says what it started, for the CLI commands run beside it. */
export const STACK_FILE = 'stack.json';

export interface StackInfo {
  pid: number;
  apiUrl: string;
  /** Present when the stack runs the embedded Postgres. */
  databaseUrl?: string;
  /** Present when the stack runs the Temporal dev server. */
  temporalAddress?: string;
  temporalNamespace?: string;
  temporalUiUrl?: string;
}

export async function writeStackInfo(dataDir: string, info: StackInfo): Promise<void> {
  await writeFile(path.join(dataDir, STACK_FILE), `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
}

export async function removeStackInfo(dataDir: string): Promise<void> {
  await rm(path.join(dataDir, STACK_FILE), { force: true });
}

/** The stack running on this DATA_DIR, or null when none is (a file left by a killed stack is ignored). */
export function readRunningStack(dataDir: string): StackInfo | null {
  let info: StackInfo;
  try {
    info = JSON.parse(readFileSync(path.join(path.resolve(dataDir), STACK_FILE), 'utf8'));
  } catch {
    return null;
  }
  return Number.isInteger(info.pid) && isAlive(info.pid) ? info : null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
