import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DYNAMIC_CONFIG } from '../../src/dev/temporalDevServer';

const SHIPPED = readFileSync(join(__dirname, '../../deploy/temporal/dynamicconfig.yaml'), 'utf8');

/** The values the shipped file gives a key (`key:` then its `- value: …` entries, in the file's one layout). */
function shippedValues(key: string): string[] {
  const block = new RegExp(`^${key.replace(/\./g, '\\.')}:\\n((?:[ ]+.*\\n?)+)`, 'm').exec(SHIPPED);
  return block ? [...block[1].matchAll(/- value: (\S+)/g)].map((m) => m[1]) : [];
}

/** Rule: the dev server that `npm start` and the tests run behaves as the cluster the shipped dynamic config sets up. */
describe('Temporal dynamic config', () => {
  for (const entry of DYNAMIC_CONFIG) {
    const [key, value] = entry.split('=');
    it(`the shipped dynamic config sets ${key} as the dev server does (${value})`, () => {
      assert.deepEqual(shippedValues(key), [value]);
    });
  }

  it('the shipped dynamic config keeps ids within 255 characters and scopes one partition to the workyard queue', () => {
    assert.deepEqual(shippedValues('limit.maxIDLength'), ['255']);
    for (const key of ['matching.numTaskqueueReadPartitions', 'matching.numTaskqueueWritePartitions']) {
      assert.match(
        SHIPPED,
        new RegExp(`^${key.replace(/\./g, '\\.')}:\\n  - value: 1\\n    constraints:\\n      taskQueueName: workyard$`, 'm'),
      );
    }
  });
});
