import { execFileSync } from 'node:child_process';

/**
 * The message locale for initdb and the server: start-up is detected by the English "ready to accept connections"
 * line, so messages must not be translated. The first of en_US.UTF-8, C.UTF-8, en_US.utf8 the system has, else C.
 */
export function postgresLocale(): string {
  if (process.platform === 'win32') return 'C';
  try {
    const available = new Set(
      execFileSync('locale', ['-a'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
        .split(/\r?\n/)
        .map((l) => l.trim()),
    );
    return ['en_US.UTF-8', 'C.UTF-8', 'en_US.utf8'].find((locale) => available.has(locale)) ?? 'C';
  } catch {
    return 'C';
  }
}
