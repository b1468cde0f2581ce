import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bundleWorkflows } from '../../temporal/worker';
import { parseFlags } from '../args';
import type { Command } from '../command';

export const DEFAULT_BUNDLE_PATH = 'dist/workflow-bundle.js';

export const bundleCommand: Command = {
  usage: `bundle [--out ${DEFAULT_BUNDLE_PATH}]`,
  summary:
    'Prebuilds the workflow bundle (`npm run build` runs this); a worker started with WORKFLOW_BUNDLE_PATH pointing at it skips bundling.',
  async run(args, io) {
    const flags = parseFlags('bundle', args, { out: { type: 'string', default: DEFAULT_BUNDLE_PATH } });
    const out = path.resolve(flags.out);
    const started = Date.now();
    const { code } = await bundleWorkflows();
    await mkdir(path.dirname(out), { recursive: true });
    await writeFile(out, code);
    io.out(
      `wrote ${out} (${Math.round(code.length / 1024)} KiB in ${Date.now() - started} ms); run workers with WORKFLOW_BUNDLE_PATH=${out}`,
    );
    return 0;
  },
};
