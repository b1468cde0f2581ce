import { parseFlags } from '../args';
import type { Command } from '../command';

export const DEFAULT_BUNDLE_PATH = 'dist/workflow-bundle.js';

export const bundleCommand: Command = {
  usage: `bundle [--out ${DEFAULT_BUNDLE_PATH}]`,
  summary:
    'Prebuilds the workflow bundle (`npm run build` runs this); a worker started with WORKFLOW_BUNDLE_PATH pointing at it skips bundling.',
  async run(args, io) {
    const flags = parseFlags('bundle', args, { out: { type: 'string', default: DEFAULT_BUNDLE_PATH } });
    const { writeBundle }: typeof import('./bundleRun') = require('./bundleRun');
    return writeBundle(flags.out, io);
  },
};
