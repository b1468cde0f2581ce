import { z } from 'zod';
import { DOCS_HTML } from './docsPage';
import { buildOpenApi } from './openapi';
import { route, type RouteDef } from './route';
import type { RouteAuthDocs } from './routeAuth';
import { checkReadiness } from './readiness';
import { metricsText } from '../telemetry/metricsText';

const tags = ['System'];

/**
 * Health, readiness, metrics and the API's own documentation. `all` is every route of the app, for the document;
 * `authDocs` how their credentials show in it.
 */
export function systemRoutes(all: () => RouteDef[], authDocs: RouteAuthDocs): RouteDef[] {
  let openApiCache: unknown;
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
      async () => ({ body: { ok: true } }),
    ),
    route(
      {
        method: 'get',
        path: '/readyz',
        operationId: 'readyz',
        tags,
        auth: { kind: 'none' },
        summary: 'Readiness: Postgres and Temporal reachable.',
        responses: {
          200: {
            description: 'Ready',
            schema: z.object({ ok: z.boolean(), checks: z.record(z.string(), z.object({ ok: z.boolean(), ms: z.number() })) }),
          },
          503: { description: 'A dependency is unreachable; `checks` says which.' },
        },
      },
      async ({ deps }) => {
        const checks = await checkReadiness(deps);
        const ok = Object.values(checks).every((c) => c.ok);
        return { status: ok ? 200 : 503, body: { ok, checks } };
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
          'Prometheus metrics: request duration by route and status, job starts and closes by kind, webhook intake, platform calls, rate-limit refusals, email sends, schedule runs, process metrics, and the Temporal SDK series (`temporal_…`) of the worker when it runs in this process.',
        responses: { 200: { description: 'Prometheus text format' } },
      },
      async ({ deps }) => ({
        body: await metricsText(deps.metrics.registry),
        headers: { 'Content-Type': deps.metrics.registry.contentType },
      }),
    ),
    route(
      {
        method: 'get',
        path: '/openapi.json',
        operationId: 'openapi',
        tags,
        auth: { kind: 'none' },
        summary: 'This API as an OpenAPI 3.1 document.',
        responses: { 200: { description: 'OpenAPI document' } },
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
        responses: { 200: { description: 'HTML page' } },
      },
      async () => ({ body: DOCS_HTML, headers: { 'Content-Type': 'text/html; charset=utf-8' } }),
    ),
  ];
}
