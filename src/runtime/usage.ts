import type { Command } from './command';
import { COMMAND_ALIASES, COMMANDS } from './commands';

/** `help`: the commands, and where configuration comes from. */
export function usageText(): string {
  const commands = Object.values(COMMANDS).flatMap((c) => [`  ${c.usage}`, ...wrap(c.summary, 96).map((line) => `      ${line}`)]);
  return [
    'Usage: npm run cli -- <command> [flags]     (npm start = npm run cli -- start; <command> --help for one command)',
    '',
    'Commands:',
    ...commands,
    '  help',
    '      This text.',
    '',
    'Configuration comes from environment variables (DATABASE_URL, TEMPORAL_ADDRESS, PORT, DATA_DIR, SECRET_HASH_KEY, …;',
    'see docs/configuration.md). Outside production, commands other than start use the servers of the `npm start` stack running',
    'on the same DATA_DIR when DATABASE_URL or TEMPORAL_ADDRESS is unset.',
    `Also spelt: ${Object.entries(COMMAND_ALIASES)
      .map(([alias, name]) => `${alias} (${name})`)
      .join(', ')}.`,
    'Exit codes: 0 done, 1 failed (the message says why), 2 bad command line.',
  ].join('\n');
}

/** `<command> --help`: its usage line and what it does. */
export function commandHelpText(command: Command): string {
  return [`Usage: npm run cli -- ${command.usage}`, '', ...wrap(command.summary, 100)].join('\n');
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}
