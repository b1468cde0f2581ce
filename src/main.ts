// The one entry point: `npm start` (all-in-one) and `npm run cli -- <command>` (api, worker, migrate, schedules,
// account, key, bundle, help). See src/runtime/commands/.
//
// Tracing patches http, undici and pg as they load, so it starts before the rest of the program is required (and
// is not loaded at all when it is off); `require`, not `import()`, keeps the program on the CommonJS loader those
// patches hook into.
/* eslint-disable @typescript-eslint/no-require-imports */
import { withTimeout } from './runtime/shutdown';
import type { ActiveTracing } from './telemetry/tracingState';

/** How long the last spans get to reach the collector once the command is done. */
const TRACE_FLUSH_MS = 5_000;

function startTracingIfConfigured(command: string | undefined): ActiveTracing | undefined {
  if (!process.env.OTEL_EXPORTER_OTLP_ENDPOINT && !process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return undefined;
  const tracing: typeof import('./telemetry/tracing') = require('./telemetry/tracing');
  return tracing.tracingRequested(process.env) ? tracing.startTracing(process.env, command) : undefined;
}

async function main(argv: string[]): Promise<number> {
  const tracing = startTracingIfConfigured(argv[0]);
  const { runCli }: typeof import('./runtime/cli') = require('./runtime/cli');
  const code = await runCli(argv);
  // After every shutdown step, so the spans of the shutdown itself are exported too.
  if (tracing) {
    await withTimeout(tracing.shutdown(), TRACE_FLUSH_MS, `span export did not finish within ${TRACE_FLUSH_MS} ms`).catch((err) =>
      process.stderr.write(`tracing: the last spans were not exported: ${String(err)}\n`),
    );
  }
  return code;
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
