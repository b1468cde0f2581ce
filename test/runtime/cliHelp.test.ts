import assert from 'node:assert/strict';
import { runCli } from '../../src/runtime/cli';
import { COMMANDS } from '../../src/runtime/commands';
import type { CommandIO } from '../../src/runtime/command';

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  // No variables: a command that ran instead of answering its help would fail for want of its configuration.
  const io: CommandIO = { env: {}, out: (line) => out.push(line), err: (line) => err.push(line) };
  return { code: await runCli(argv, io), out: out.join('\n'), err: err.join('\n') };
}

describe('command line help', () => {
  for (const [name, command] of Object.entries(COMMANDS)) {
    it(`${name} --help and ${name} -h print its usage and what it does, exit 0 and run nothing`, async () => {
      for (const flag of ['--help', '-h']) {
        const result = await run([name, flag]);
        assert.equal(result.code, 0, result.err);
        assert.equal(result.err, '');
        assert.ok(result.out.startsWith(`Usage: npm run cli -- ${command.usage}\n`), result.out);
        assert.ok(result.out.includes(command.summary.split(' ').slice(0, 4).join(' ')), result.out);
      }
    });
  }

  it('accounts, keys and job are account, key and jobs', async () => {
    for (const [alias, name] of [
      ['accounts', 'account'],
      ['keys', 'key'],
      ['job', 'jobs'],
    ]) {
      const result = await run([alias, '--help']);
      assert.equal(result.code, 0, result.err);
      assert.equal(result.out, (await run([name, '--help'])).out);
    }
  });

  it('--help after an action or other flags still answers the help (key create --account X --help)', async () => {
    const result = await run(['key', 'create', '--account', 'x', '--help']);
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /^Usage: npm run cli -- key create/);
  });
});
