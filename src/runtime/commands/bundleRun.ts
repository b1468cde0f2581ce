import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bundleWorkflows } from '../../temporal/worker';
import type { CommandIO } from '../command';

export async function writeBundle(outPath: string, io: CommandIO): Promise<number> {
  const out = path.resolve(outPath);
  const started = Date.now();
  const { code } = await bundleWorkflows();
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, code);
  io.out(
    `wrote ${out} (${Math.round(code.length / 1024)} KiB in ${Date.now() - started} ms); run workers with WORKFLOW_BUNDLE_PATH=${out}`,
  );
  return 0;
}
