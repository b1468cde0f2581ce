import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

// postfix-script calls sed, find, chown…; Postfix ignores an inherited MAIL_CONFIG only when -c is given.
const ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C' };

/** The last `lines` lines of the instance's maillog ('' before it exists). */
export async function logTail(logPath: string, lines = 40): Promise<string> {
  const text = await readFile(logPath, 'utf8').catch(() => '');
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/**
 * Runs a Postfix command of one instance (`postfix -c <configDir> start`, `postqueue -c <configDir> -j`). A failure
 * throws an error naming the command with its output and the end of the instance's maillog, where Postfix says why.
 */
export async function postfixCommand(binary: string, configDir: string, args: string[], logPath: string): Promise<string> {
  const argv = ['-c', configDir, ...args];
  try {
    const { stdout } = await run(binary, argv, { env: ENV, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    const e = err as { code?: number | string; stdout?: string; stderr?: string; message: string };
    const output = [e.stderr, e.stdout].filter(Boolean).join('\n').trim() || e.message;
    const log = await logTail(logPath);
    throw new Error(`${binary} ${argv.join(' ')} failed (exit ${e.code}):\n${output}\n--- ${logPath} (end) ---\n${log || '(empty)'}`, {
      cause: err,
    });
  }
}
