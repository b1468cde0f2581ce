import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { call } from '../helpers/http';

// Every error code the code can answer must be listed by some route's `errors:` (or by the document's general notes),
// so a client reading /openapi.json knows every `code` it may have to branch on.

const root = path.resolve(__dirname, '../..');
/** Process tooling and simulators: their errors never reach an API client. */
const NOT_SERVED = /^src\/(?:sandbox|dev|runtime)\//;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/** code → files that answer it: `new ApiError(<status>, '<code>'`, `notFound(<what>, '<code>')`, and `code = … '<code>'`. */
function codesInSource(): Map<string, Set<string>> {
  const patterns = [
    /new ApiError\(\s*[^,()]+,\s*['"`]([a-z][a-z0-9_]*)['"`]/g,
    /\bnotFound\([^,()]+,\s*['"`]([a-z][a-z0-9_]*)['"`]\s*,?\s*\)/g,
    /\bconst code =[^;]*?['"`]([a-z][a-z0-9_]*)['"`];/g,
  ];
  const found = new Map<string, Set<string>>();
  for (const file of [...sourceFiles(path.join(root, 'src')), ...sourceFiles(path.join(root, 'activities'))]) {
    const rel = path.relative(root, file).split(path.sep).join('/');
    if (NOT_SERVED.test(rel)) continue;
    const text = readFileSync(file, 'utf8');
    for (const pattern of patterns) {
      for (const [, code] of text.matchAll(pattern)) (found.get(code) ?? found.set(code, new Set()).get(code)!).add(rel);
    }
  }
  return found;
}

/** Codes the document lists: each error response is "`code`: why" lines (`a | b` names several), plus the general notes. */
function codesInDocument(doc: {
  info: { description: string };
  paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
}): Set<string> {
  const codes = new Set<string>();
  const add = (text: string, pattern: RegExp) => {
    for (const [, names] of text.matchAll(pattern)) for (const code of names.split(' | ')) codes.add(code.trim());
  };
  for (const operations of Object.values(doc.paths)) {
    for (const op of Object.values(operations)) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) >= 400) add(response.description, /^`([a-z][a-z0-9_ |]*)`:/gm);
      }
    }
  }
  add(doc.info.description, /`([a-z][a-z0-9_]*)`/g);
  return codes;
}

describe('every error code is documented', () => {
  it("every code the code can answer appears in some route's errors list of /openapi.json", async () => {
    const res = await call('GET', '/openapi.json');
    assert.equal(res.status, 200);
    const documented = codesInDocument(res.body as Parameters<typeof codesInDocument>[0]);
    const answered = codesInSource();
    assert.ok(answered.size > 100, `the source scan found only ${answered.size} codes`);
    const missing = [...answered].filter(([code]) => !documented.has(code)).map(([code, files]) => `${code} (${[...files].join(', ')})`);
    assert.deepEqual(missing, [], `codes no route lists in its errors: ${missing.join('; ')}`);
  });
});
