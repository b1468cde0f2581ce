import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, realpath, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bundleWorkflows, WORKFLOW_BUNDLE_CACHE_DIR, workflowBundleCache } from '../../src/temporal/worker';

const workflowSource = (answer: string) => `export async function probe() {\n  return '${answer}';\n}\n`;

describe('workflow bundles through webpack’s cache', function () {
  this.timeout(120_000);
  let dir: string;
  before(async () => {
    // Beside the cache (its real path: node_modules may be a link), where the probe resolves the SDK's modules.
    const caches = path.dirname(WORKFLOW_BUNDLE_CACHE_DIR);
    await mkdir(caches, { recursive: true });
    dir = await mkdtemp(path.join(await realpath(caches), 'probe-'));
  });
  after(async () => {
    const cache = workflowBundleCache(path.join(dir, 'workflows.js'));
    await rm(path.join(cache.cacheDirectory, cache.name), { recursive: true, force: true });
    await rm(dir, { recursive: true, force: true });
  });

  it('a cached bundle is the bundle made without the cache, and an edit to a workflow shows in the next one', async () => {
    const file = path.join(dir, 'workflows.js');
    await writeFile(file, workflowSource('first answer'));
    const uncached = await bundleWorkflows(file);
    const filled = await bundleWorkflows(file, { cache: true });
    const cache = workflowBundleCache(file);
    assert.ok((await readdir(path.join(cache.cacheDirectory, cache.name))).length > 0, 'webpack wrote its cache');
    const fromCache = await bundleWorkflows(file, { cache: true });
    assert.ok(uncached.code.includes('first answer'));
    assert.equal(filled.code, uncached.code);
    assert.equal(fromCache.code, uncached.code);

    await writeFile(file, workflowSource('second answer'));
    const later = new Date(Date.now() + 5_000);
    await utimes(file, later, later);
    const edited = await bundleWorkflows(file, { cache: true });
    assert.ok(edited.code.includes('second answer'), 'the edit is in the bundle');
    assert.ok(!edited.code.includes('first answer'), 'nothing of the old file is left');
  });
});
