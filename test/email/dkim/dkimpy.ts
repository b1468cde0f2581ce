import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

// dkimpy (Debian's python3-dkim): a DKIM verifier independent of the library that signs.

const SCRIPT = path.join(__dirname, 'dkimpyVerify.py');
const PYTHONS = ['/usr/bin/python3', 'python3'];

/** A Python 3 that has dkimpy, or a failure saying what to install. */
function pythonWithDkim(): string {
  const found = PYTHONS.find((bin) => spawnSync(bin, ['-c', 'import dkim'], { stdio: 'ignore' }).status === 0);
  if (!found) assert.fail('dkimpy is missing: apt-get install -y python3-dkim');
  return found;
}

/** dkimpy's verdict on the message (`pass` or `fail: <reason>`), the key records given as DNS answered them. */
export function dkimpy(message: Buffer, records: Record<string, string>): string {
  const args = [SCRIPT, ...Object.entries(records).map(([name, value]) => `${name}=${value}`)];
  const run = spawnSync(pythonWithDkim(), args, { input: message, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim();
}
