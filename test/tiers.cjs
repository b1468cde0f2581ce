// The suite's two tiers, found from the imports rather than kept by hand. An integration test is a file whose imports
// (followed through test/) reach the harness (real Postgres, Temporal, a worker and the app) or start a part of their
// own; every other file is a unit test, which `npm run test:unit` runs with neither. rootHooks.ts starts the harness
// only when a loaded file imported it, so a unit file cannot use it by mistake: harness() would throw.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const testDir = path.join(root, 'test');

/** Imports that make a file an integration test: the harness, or a real Postgres or Temporal started in the file. */
const INTEGRATION_IMPORTS = [
  path.join(testDir, 'helpers/harness.ts'),
  path.join(root, 'src/dev/scratchDatabase.ts'),
  path.join(root, 'src/dev/temporalDevServer.ts'),
  path.join(root, 'src/dev/embeddedPostgres.ts'),
  '@temporalio/testing',
];

const IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|\b(?:require|import)\(\s*['"]([^'"]+)['"]\s*\)/gm;

function resolveImport(from, specifier) {
  if (!specifier.startsWith('.')) return specifier;
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.cjs`, `${base}.js`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return base;
}

function importsOf(file) {
  const text = fs.readFileSync(file, 'utf8');
  const out = [];
  for (const m of text.matchAll(IMPORT)) out.push(resolveImport(file, m[1] ?? m[2]));
  return out;
}

const verdicts = new Map();

/** True when `file` reaches an integration import through files under test/. */
function needsIntegration(file, seen = new Set()) {
  if (verdicts.has(file)) return verdicts.get(file);
  if (seen.has(file)) return false;
  seen.add(file);
  let result = false;
  for (const target of importsOf(file)) {
    if (INTEGRATION_IMPORTS.includes(target)) result = true;
    else if (target.startsWith(testDir) && /\.(ts|cjs|js)$/.test(target) && fs.existsSync(target)) result = needsIntegration(target, seen);
    if (result) break;
  }
  verdicts.set(file, result);
  return result;
}

function testFiles(dir = testDir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...testFiles(full));
    else if (entry.name.endsWith('.test.ts')) out.push(full);
  }
  return out.sort();
}

function tiers() {
  const unit = [];
  const integration = [];
  for (const file of testFiles()) (needsIntegration(file) ? integration : unit).push(path.relative(root, file));
  return { unit, integration };
}

module.exports = { tiers };

if (require.main === module) {
  const { unit, integration } = tiers();
  const which = process.argv[2];
  if (which === 'unit' || which === 'integration') console.log((which === 'unit' ? unit : integration).join('\n'));
  else console.log(`${unit.length} unit, ${integration.length} integration`);
}
