#!/usr/bin/env node
// `npm test`: every test file, in two tiers (test/tiers.cjs). The unit tier runs in one mocha process with no harness;
// the integration tier is split into shards, each one mocha process with a harness of its own (its own Temporal dev
// server, scratch database, worker and app), so that one shard's waits on Temporal overlap another's work. Shards are
// balanced by each file's duration in test/durations.json; a file it does not list counts as the median.
//
//   TEST_SHARDS=n                   integration shards (default 4: on two cores, one shard's waits on Temporal overlap the others' work)
//   npm test -- --write-durations   refresh test/durations.json from this run
//   npm test -- <mocha arguments>   one plain mocha run with those arguments (files, or --grep … over every file)
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { tiers } = require('../tiers.cjs');

const root = path.resolve(__dirname, '../..');
const mochaBin = require.resolve('mocha/bin/mocha.js');
const reporter = path.join(__dirname, 'durationReporter.cjs');
const durationsFile = path.join(root, 'test/durations.json');

const args = process.argv.slice(2);
const writeDurations = args.includes('--write-durations');
const mochaArgs = args.filter((a) => a !== '--write-durations');

if (mochaArgs.length > 0) {
  // Options alone (`--grep x`) apply to every test file, as `mocha 'test/**/*.test.ts' --grep x` would.
  const files = mochaArgs.some((a) => !a.startsWith('-') && /\.(ts|cjs|js)$|[*/]/.test(a)) ? [] : ['test/**/*.test.ts'];
  const child = spawn(process.execPath, [mochaBin, ...files, ...mochaArgs], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return;
}

function readDurations() {
  try {
    return JSON.parse(fs.readFileSync(durationsFile, 'utf8'));
  } catch {
    return {};
  }
}

/** Longest first onto the least-loaded shard: within 4/3 of the best split. */
function balance(files, count, durations) {
  const known = files
    .map((f) => durations[f])
    .filter((d) => typeof d === 'number')
    .sort((a, b) => a - b);
  const median = known.length ? known[Math.floor(known.length / 2)] : 1;
  const shards = Array.from({ length: count }, () => ({ files: [], load: 0 }));
  const byCost = files.map((f) => [f, durations[f] ?? median]).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  for (const [file, cost] of byCost) {
    const lightest = shards.reduce((a, b) => (b.load < a.load ? b : a));
    lightest.files.push(file);
    lightest.load += cost;
  }
  return shards.filter((s) => s.files.length > 0).map((s) => s.files.sort());
}

function run(name, mochaArguments, outFile) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [mochaBin, ...mochaArguments, '--reporter', reporter], {
      cwd: root,
      env: { ...process.env, DURATIONS_OUT: outFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    children.add(child);
    progress.set(name, chunks);
    console.log(`started ${name}`);
    child.on('close', (code, signal) => {
      children.delete(child);
      progress.delete(name);
      const output = Buffer.concat(chunks).toString('utf8');
      const seconds = Math.round((Date.now() - started) / 1000);
      process.stdout.write(`\n──── ${name}: exit ${code ?? signal} after ${seconds} s ────\n${output}\n`);
      const count = (word) => Number(output.match(new RegExp(`^\\s+(\\d+) ${word}`, 'm'))?.[1] ?? 0);
      resolve({ name, ok: code === 0, passing: count('passing'), failing: count('failing'), pending: count('pending'), outFile });
    });
  });
}

const children = new Set();
/** Each running child's output so far, for a line of progress a minute (its own output comes whole at its end). */
const progress = new Map();
const countOf = (text, pattern) => (text.match(pattern) ?? []).length;
setInterval(() => {
  const parts = [...progress].map(([name, chunks]) => {
    const text = Buffer.concat(chunks).toString('utf8');
    return `${name}: ${countOf(text, /✔/g)} passed, ${countOf(text, /^\s+\d+\) /gm)} failed`;
  });
  if (parts.length) console.log(`… ${parts.join('; ')}`);
}, 60_000).unref();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exit(130);
  });
}

async function main() {
  const started = Date.now();
  const { unit, integration } = tiers();
  const shardCount = Math.max(1, Number(process.env.TEST_SHARDS) || 4);
  const shards = balance(integration, shardCount, readDurations());
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'workyard-test-'));
  console.log(`${unit.length} unit test files in one process; ${integration.length} integration test files in ${shards.length} shards`);
  const results = await Promise.all([
    run('unit tier', ['--config', '.mocharc.unit.cjs'], path.join(tmp, 'unit.json')),
    ...shards.map((files, i) => run(`integration shard ${i + 1}/${shards.length}`, files, path.join(tmp, `shard-${i}.json`))),
  ]);

  if (writeDurations) {
    const merged = {};
    for (const r of results) {
      if (!fs.existsSync(r.outFile)) continue;
      for (const [file, ms] of Object.entries(JSON.parse(fs.readFileSync(r.outFile, 'utf8'))))
        merged[path.relative(root, file)] = Math.round(ms / 100) * 100;
    }
    const sorted = Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b)));
    fs.writeFileSync(durationsFile, `${JSON.stringify(sorted, null, 2)}\n`);
    console.log(`wrote ${path.relative(root, durationsFile)} (${Object.keys(sorted).length} files)`);
  }
  fs.rmSync(tmp, { recursive: true, force: true });

  const total = (k) => results.reduce((n, r) => n + r[k], 0);
  const failed = results.filter((r) => !r.ok);
  console.log(`\nall tiers, ${Math.round((Date.now() - started) / 1000)} s:`);
  for (const r of results) console.log(`  ${r.name}: ${r.passing} passing, ${r.failing} failing${r.ok ? '' : ' (exit not 0)'}`);
  console.log(`\n  ${total('passing')} passing`);
  if (total('pending')) console.log(`  ${total('pending')} pending`);
  if (total('failing') || failed.length) console.log(`  ${total('failing')} failing`);
  // exitCode, not exit(): a pipe (CI tees this output) is written asynchronously, and exit() would cut the report.
  process.exitCode = failed.length ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
