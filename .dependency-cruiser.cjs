// Import rules of DESIGN.md ("Dependencies point one way"), checked in CI by `npm run depcheck`.
//
// Layers inside an area: routes (`routes.ts`, `*Routes.ts`) → services (everything else) → stores (`store.ts`,
// `*Store.ts`, the only SQL). An area is a folder directly under src/ that is not shared plumbing (PLUMBING below):
// crm, forms, email, marketing, research, knowledge, sitePlatform, commerce, projects, jobs, inbox, cron, auth, triggers, …
// A new folder under src/ is an area unless it is added to PLUMBING. Sub-folders (commerce/bindings, email/keys)
// belong to their top-level area.
//
// `src/app/` is the composition root: the one place outside an area that wires every area's routes, schedules and
// activities. `src/runtime/`, `src/main.ts`, `src/sandbox/` and `src/dev/` run the processes and may reach it.

const PLUMBING = [
  'net',
  'http',
  'temporal',
  'db',
  'crypto',
  'config',
  'logger',
  'deps',
  'clients',
  'sandbox',
  'runtime',
  'app',
  'dev',
  'main',
  'telemetry',
  'webhookKit',
];
const notPlumbing = `(?!(?:${PLUMBING.join('|')})(?:/|\\.ts$))`;
const AREA = `^src/${notPlumbing}([^/]+)/`;
// pathNot patterns that leave only files of an area
const NOT_AREA = ['^(?!src/)', `^src/(?:${PLUMBING.join('|')})(?:/|\\.ts$)`];
const ROUTES = '(?:^|/)(?:routes|[A-Za-z0-9]*Routes)\\.ts$';
const STORE = '(?:^|/)(?:store|[A-Za-z0-9]*Store)\\.ts$';
const SERVICE = '(?:^|/)(?:service|[A-Za-z0-9]*Service)\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'routes-not-to-store',
      comment:
        'routes → services → stores: a routes file reaches data through its service, never a store directly (a row type may be imported as a type).',
      severity: 'error',
      from: { path: ROUTES },
      to: { path: STORE, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'store-not-to-service-or-routes',
      comment: 'A store is the bottom layer: it imports no service and no routes.',
      severity: 'error',
      from: { path: STORE },
      to: { path: [SERVICE, ROUTES] },
    },
    {
      name: 'no-other-areas-store',
      comment: "No area imports another area's store: it asks that area's service.",
      severity: 'error',
      from: { path: AREA },
      to: { path: STORE, pathNot: [...NOT_AREA, '^src/$1/'] },
    },
    {
      name: 'plumbing-not-to-area-store',
      comment: 'Shared plumbing and activities reach an area through its service, never its store.',
      severity: 'error',
      from: {
        path: ['^activities/', `^src/(?:${PLUMBING.filter((p) => !['runtime', 'sandbox', 'dev', 'app', 'main'].includes(p)).join('|')})/`],
      },
      to: { path: STORE, pathNot: NOT_AREA },
    },
    {
      name: 'http-temporal-not-to-area',
      comment: 'src/http/ and src/temporal/ are plumbing every area uses; they import no area (src/app/ wires areas in).',
      severity: 'error',
      from: { path: '^src/(?:http|temporal)/' },
      to: { path: AREA },
    },
    {
      name: 'area-routes-only-from-app',
      comment:
        "An area's routes are mounted by src/app/ (the composition root); no other area, plumbing, activity or workflow imports them.",
      severity: 'error',
      from: { path: '^(?:src/([^/]+)|activities|workflows)/', pathNot: ['^src/(?:app|runtime|sandbox|dev)/', '^src/main\\.ts$'] },
      to: { path: ROUTES, pathNot: [...NOT_AREA, '^src/$1/'] },
    },
    {
      name: 'routes-only-from-routes',
      comment: 'Inside an area, only routes files (an area routes.ts gathers its sub-routes) and index.ts barrels import routes files.',
      severity: 'error',
      from: { path: AREA, pathNot: [ROUTES, '(?:^|/)index\\.ts$'] },
      to: { path: ROUTES, pathNot: '^(?!src/$1/)' },
    },
    {
      name: 'workflows-no-io',
      comment:
        'Workflow code is deterministic and bundled for the Temporal sandbox: it imports only @temporalio/workflow, ' +
        '@temporalio/common, other workflows/ files, and types (type-only imports vanish at compile time).',
      severity: 'error',
      from: { path: '^workflows/' },
      to: {
        dependencyTypesNot: ['type-only'],
        pathNot: ['^workflows/', '^node_modules/@temporalio/(?:workflow|common)/'],
      },
    },
    {
      name: 'no-circular',
      comment: 'No import cycle, type-only ones included: a cycle means a shape lives in the wrong file.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'workflows-not-to-areas',
      comment: 'Areas import workflow contracts, never the other way: a contract owns the types its workflow carries.',
      severity: 'error',
      from: { path: '^workflows/' },
      to: { path: AREA },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing is a typo or a missing dependency.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^(?:src|activities|workflows|migrations|bench|node_modules)/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
