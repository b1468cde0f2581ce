import { z } from 'zod';
import { DOCS_HTML } from './docsPage';
import { DEFAULT_RETRY_AFTER_SECONDS } from './errors';
import { buildOpenApi } from './openapi';
import { route, type RouteDef } from './route';
import type { RouteAuthDocs } from './routeAuth';
import { checkReadiness } from './readiness';
import { refreshWorkerFingerprintGauge } from './workersCheck';
import { metricsText } from '../telemetry/metricsText';

const tags = ['System'];

/** What /readyz answers, ready (200) or not (503). */
const readinessSchema = z
  .object({
    ok: z.boolean(),
    checks: z.object({
      postgres: z.object({ ok: z.boolean(), ms: z.number() }),
      temporal: z.object({ ok: z.boolean(), ms: z.number() }),
      workers: z.object({
        ok: z.boolean().describe('Whether the pollers could be read; never makes readiness fail.'),
        ms: z.number(),
        task_queue: z.string(),
        fingerprints: z.array(z.object({ fingerprint: z.string().nullable(), workers: z.number().int() })),
        disagree: z.boolean().describe('More than one fingerprint: some workers have other provider settings.'),
        differing: z.array(z.string()).describe('The providers whose settings differ, where known.'),
      }),
    }),
    warnings: z.array(z.string()),
  })
  .meta({ id: 'Readiness' });

/**
 * Health, readiness, metrics and the API's own documentation. `all` is every route of the app, for the document;
 * `authDocs` how their credentials show in it.
 */
export function systemRoutes(all: () => RouteDef[], authDocs: RouteAuthDocs): RouteDef[] {
  let openApiCache: ReturnType<typeof buildOpenApi> | undefined;
  return [
    route(
      {
        method: 'get',
        path: '/healthz',
        operationId: 'healthz',
        tags,
        auth: { kind: 'none' },
        summary: 'Liveness: the process answers.',
        responses: { 200: { description: 'Alive', schema: z.object({ ok: z.literal(true) }) } },
      },
      async () => ({ body: { ok: true as const } }),
    ),
    route(
      {
        method: 'get',
        path: '/readyz',
        operationId: 'readyz',
        tags,
        auth: { kind: 'none' },
        summary:
          'Readiness: Postgres and Temporal reachable. `checks.workers` shows the provider-settings fingerprints of the workers ' +
          'polling the task queue (looked up at most every 5 s); workers that disagree, or none polling, are `warnings`, never a 503.',
        responses: {
          200: {
            description: 'Ready',
            schema: readinessSchema,
          },
          503: {
            description: 'Postgres or Temporal is unreachable; `checks` says which.',
            schema: readinessSchema,
            headers: { 'Retry-After': 'Seconds before asking again.' },
          },
        },
      },
      async ({ deps }) => {
        const readiness = await checkReadiness(deps);
        if (readiness.ok) return { status: 200 as const, body: readiness };
        return { status: 503 as const, body: readiness, headers: { 'Retry-After': String(DEFAULT_RETRY_AFTER_SECONDS[503]) } };
      },
    ),
    route(
      {
        method: 'get',
        path: '/metrics',
        operationId: 'metrics',
        tags,
        auth: { kind: 'none' },
        summary:
          'Prometheus metrics: request duration by route and status, job starts and closes by kind, webhook intake, platform calls, rate-limit refusals, email sends, schedule runs, the provider fingerprints of the workers of the task queue, process metrics, and the Temporal SDK series (`temporal_…`) of the worker when it runs in this process.',
        responses: { 200: { description: 'Prometheus text format', contentType: 'text/plain' } },
      },
      async ({ deps }) => {
        await refreshWorkerFingerprintGauge(deps);
        return { body: await metricsText(deps.metrics.registry), headers: { 'Content-Type': deps.metrics.registry.contentType } };
      },
    ),
    route(
      {
        method: 'get',
        path: '/openapi.json',
        operationId: 'openapi',
        tags,
        auth: { kind: 'none' },
        summary: 'This API as an OpenAPI 3.1 document.',
        responses: {
          200: {
            description: 'OpenAPI document',
            schema: z
              .looseObject({
                openapi: z.string().describe('The OpenAPI version, 3.1.0.'),
                info: z.looseObject({}),
                paths: z.record(z.string(), z.looseObject({})),
              })
              .meta({ id: 'OpenApiDocument' }),
          },
        },
      },
      async ({ deps }) => ({ body: (openApiCache ??= buildOpenApi(all(), authDocs, deps.config.PUBLIC_APP_URL)) }),
    ),
    route(
      {
        method: 'get',
        path: '/docs',
        operationId: 'docs',
        tags,
        auth: { kind: 'none' },
        summary: 'Human-readable API reference.',
        responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
      },
      async () => ({ body: DOCS_HTML, headers: { 'Content-Type': 'text/html; charset=utf-8' } }),
    ),
  ];
}
