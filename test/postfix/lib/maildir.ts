import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/** Every message of a maildir (`new/` and `cur/`), raw, oldest first; none when it does not exist yet. */
export async function readMaildir(dir: string): Promise<Buffer[]> {
  const files: Array<{ file: string; mtimeMs: number }> = [];
  for (const sub of ['cur', 'new']) {
    const names = await readdir(path.join(dir, sub)).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    });
    for (const name of names) {
      const file = path.join(dir, sub, name);
      files.push({ file, mtimeMs: (await stat(file)).mtimeMs });
    }
  }
  // Maildir names start with the delivery time in seconds: mtime orders within a second, the name breaks ties.
  files.sort((a, b) => a.mtimeMs - b.mtimeMs || path.basename(a.file).localeCompare(path.basename(b.file)));
  return Promise.all(files.map(({ file }) => readFile(file)));
}
