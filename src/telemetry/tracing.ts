import type { IncomingMessage } from 'node:http';
import { diag, DiagConsoleLogger, trace } from '@opentelemetry/api';
import { getEnv, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { detectResourcesSync, envDetectorSync, Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { redactPath, redactUrl } from './tracingRedaction';
import { setActiveTracing, type ActiveTracing } from './tracingState';

/** Tracing is on when an OTLP endpoint is configured (and the standard kill switch is not set). */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/**
 * OTEL_SERVICE_NAME, else `service.name` of OTEL_RESOURCE_ATTRIBUTES, else one named after the command:
 * workyard-api, workyard-worker, workyard (the all-in-one `start`), workyard-<command>.
 */
export function serviceNameFor(env: NodeJS.ProcessEnv, command: string | undefined, fromAttributes?: unknown): string {
  const chosen = env.OTEL_SERVICE_NAME?.trim();
  if (chosen) return chosen;
  if (typeof fromAttributes === 'string' && fromAttributes.trim()) return fromAttributes.trim();
  return !command || command === 'start' ? 'workyard' : `workyard-${command}`;
}

/** Scrapes and probes would be most of the API's traces and say nothing. */
const UNTRACED_PATHS = new Set(['/metrics', '/healthz', '/readyz']);

/**
 * OTLP/HTTP span export (the exporter reads the standard OTEL_EXPORTER_OTLP_* variables, the batch processor
 * OTEL_BSP_*, the sampler OTEL_TRACES_SAMPLER*), instrumentation of incoming and outgoing HTTP (node:http and
 * undici/fetch) and of pg queries, and the Temporal interceptors (tracingState.ts hands them to the client and the
 * worker). Must run before http, undici users and pg are loaded: src/main.ts requires it before anything else.
 *
 * Spans never carry request or response headers or bodies, query strings, SQL parameters, or token-like path
 * segments (tracingRedaction.ts); only W3C `traceparent`/`tracestate` are propagated (no baggage, so nothing a
 * client sends rides along into workflow history and on to platform calls).
 */
export function startTracing(env: NodeJS.ProcessEnv, command: string | undefined): ActiveTracing {
  // The SDK's own complaints (an unreachable collector, a dropped batch) are silent unless OTEL_LOG_LEVEL asks for them.
  if (env.OTEL_LOG_LEVEL?.trim()) diag.setLogger(new DiagConsoleLogger(), getEnv().OTEL_LOG_LEVEL);
  const detected = detectResourcesSync({ detectors: [envDetectorSync] });
  const resource = detected.merge(new Resource({ 'service.name': serviceNameFor(env, command, detected.attributes['service.name']) }));
  const processor = new BatchSpanProcessor(new OTLPTraceExporter());
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  provider.register({ propagator: new W3CTraceContextPropagator() });

  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has(redactPath(req.url ?? '/')),
        startIncomingSpanHook: (req) => incomingUrlAttributes(req),
        startOutgoingSpanHook: (options) => {
          const path = redactPath(options.path ?? '/');
          const origin = `${options.protocol ?? 'http:'}//${options.hostname ?? options.host ?? 'localhost'}${options.port ? `:${options.port}` : ''}`;
          return { 'http.url': `${origin}${path}`, 'http.target': path, 'url.full': `${origin}${path}`, 'url.path': path, 'url.query': '' };
        },
      }),
      new UndiciInstrumentation({
        startSpanHook: (request) => {
          const url = redactUrl(`${request.origin}${request.path}`);
          return { 'url.full': url, 'url.path': redactPath(request.path), 'url.query': '' };
        },
      }),
      // Background loops (relays, pollers) query all the time: only queries inside a traced request or activity count.
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
    ],
  });

  // Required after the instrumentations are registered: it loads the Temporal SDK.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const otelTemporal: typeof import('@temporalio/interceptors-opentelemetry') = require('@temporalio/interceptors-opentelemetry');
  const tracing: ActiveTracing = {
    clientInterceptors: () => [new otelTemporal.OpenTelemetryWorkflowClientInterceptor()],
    workerInterceptors: () => ({
      activity: [
        (ctx) => ({
          inbound: new otelTemporal.OpenTelemetryActivityInboundInterceptor(ctx),
          outbound: new otelTemporal.OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
    }),
    workerSinks: () => ({ exporter: otelTemporal.makeWorkflowExporter(processor, resource) }),
    nameServerSpan: (method, route) => {
      const span = trace.getActiveSpan();
      span?.updateName(`${method} ${route}`);
      span?.setAttribute('http.route', route);
    },
    shutdown: () => provider.shutdown(),
  };
  setActiveTracing(tracing);
  return tracing;
}

function incomingUrlAttributes(req: IncomingMessage): Record<string, string> {
  const path = redactPath(req.url ?? '/');
  const url = redactUrl(`http://${req.headers.host ?? 'localhost'}${path}`);
  return { 'http.url': url, 'http.target': path, 'url.full': url, 'url.path': path, 'url.query': '' };
}
