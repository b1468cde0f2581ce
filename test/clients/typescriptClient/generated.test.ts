import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { GENERATED_DIR, generateClient } from '../../../clients/typescript/scripts/generate';

async function filesOf(dir: string, base = dir): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? filesOf(path.join(dir, e.name), base) : [path.relative(base, path.join(dir, e.name))])),
  );
  return nested.flat().sort();
}

describe('the TypeScript client is generated from the current OpenAPI document', function () {
  this.timeout(60_000);

  it('regenerating it changes nothing (after a route change, run `npm run client:generate` and commit)', async () => {
    const fresh = await mkdtemp(path.join(os.tmpdir(), 'wy-client-check-'));
    try {
      await generateClient(fresh);
      const [expected, committed] = [await filesOf(fresh), await filesOf(GENERATED_DIR)];
      assert.deepEqual(committed, expected, 'the generated files differ in name');
      for (const file of expected) {
        const [want, have] = await Promise.all([
          readFile(path.join(fresh, file), 'utf8'),
          readFile(path.join(GENERATED_DIR, file), 'utf8'),
        ]);
        assert.ok(want === have, `clients/typescript/src/generated/${file} is out of date: run \`npm run client:generate\``);
      }
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });
});
