import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { DYNAMIC_CONFIG } from '../../src/dev/temporalDevServer';

type Setting = Array<{ value: unknown; constraints: Record<string, unknown> }>;
const SHIPPED = load(readFileSync(join(__dirname, '../../deploy/temporal/dynamicconfig.yaml'), 'utf8')) as Record<string, Setting>;

/** Rule: the dev server that `npm start` and the tests run behaves as the cluster the shipped dynamic config sets up. */
describe('Temporal dynamic config', () => {
  for (const entry of DYNAMIC_CONFIG) {
    const [key, value] = entry.split('=');
    it(`the shipped dynamic config sets ${key} as the dev server does (${value})`, () => {
      assert.deepEqual(
        SHIPPED[key]?.map((s) => String(s.value)),
        [value],
      );
    });
  }

  it('the shipped dynamic config keeps ids within 255 characters and scopes one partition to the workyard queue', () => {
    assert.deepEqual(SHIPPED['limit.maxIDLength'], [{ value: 255, constraints: {} }]);
    for (const key of ['matching.numTaskqueueReadPartitions', 'matching.numTaskqueueWritePartitions']) {
      assert.deepEqual(SHIPPED[key], [{ value: 1, constraints: { taskQueueName: 'workyard' } }]);
    }
  });
});
