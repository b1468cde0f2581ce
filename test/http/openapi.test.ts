import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AuthSpec } from '../../src/auth/types';
import { apiRoutes } from '../../src/app/routes';
import { routeAuth } from '../../src/auth/routeAuth';
import { buildOpenApi } from '../../src/http/openapi';
import { call } from '../helpers/http';
import { testRoutes } from '../helpers/testRoutes';

const securityOf = (auth: AuthSpec): unknown => {
  switch (auth.kind) {
    case 'none':
      return [];
    case 'session':
      return [{ sessionToken: [] }];
    case 'agent':
      return [{ agentKey: [] }];
    case 'agentSecret':
      return [{ agentSecret: [] }];
    case 'sessionOrAgentSecret':
      return [{ sessionToken: [] }, { agentSecret: [] }];
    case 'cron':
      return [{ cronSecret: [] }];
    case 'emailKey':
      return [{ emailKey: [auth.scope] }];
  }
};

const routeTable = () => apiRoutes(() => []);

/** The API's resources, envelopes and answers a client generator should see as named types. */
const RESOURCES = [
  ...['Job', 'JobSummary', 'JobProgress', 'JobList', 'BulkAction', 'JobToken', 'Schedule', 'ScheduleRun', 'ScheduleRunList'],
  ...['ContentItem', 'ContentItemList', 'ListedContentItem', 'AgentContentItem', 'CmsLink', 'ContentVersion', 'ScheduledPublish'],
  ...['Avatar', 'Journey', 'Grid', 'GridResult', 'GridTestimonial', 'Category', 'MediaAsset', 'BrandGuide', 'BrandImageProfile'],
  ...['Comment', 'Review', 'Actor', 'ProofPack', 'ProofEntry', 'SeoCheck', 'ContentScorecard', 'ContentCalendar'],
  ...['Project', 'ProjectList', 'ProjectDeployment', 'ProjectDeploymentWithSecret', 'KnowledgeBase', 'KnowledgeArtifact'],
  ...['AiTurn', 'AiToolCall', 'ResearchRun', 'WebhookEndpoint', 'WebhookDelivery', 'WebhookDeliveryList'],
  ...['EmailDomain', 'EmailDomainRecord', 'EmailKey', 'EmailTemplate', 'EmailMessage', 'EmailRecipient', 'EmailSuppression'],
  ...['SitePlatformConnection', 'SitePlatformSite', 'SitePlatformOAuthClient', 'SitePlatformBinding'],
  ...['CommerceConnection', 'CommerceApp', 'CommerceSettings', 'User', 'Account', 'AgentKey', 'AccountPlan', 'InboxItem'],
  ...['Contact', 'ContactList', 'Task', 'Deal', 'Activity', 'PipelineStage', 'FormSubmission', 'FormSubmissionDetail'],
  'Error',
];

describe('the OpenAPI document and the docs page', () => {
  let doc: any;
  before(async () => {
    const res = await call('GET', '/openapi.json');
    assert.equal(res.status, 200);
    doc = res.body;
  });

  it('/openapi.json is an OpenAPI 3.1.0 document', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(typeof doc.info.title, 'string');
    assert.equal(typeof doc.info.version, 'string');
  });

  it('every route of the route table is in the document, and the document lists nothing else', () => {
    const table = routeTable();
    assert.ok(table.length > 5);
    for (const { spec } of table) {
      assert.ok(doc.paths[spec.path]?.[spec.method], `${spec.method.toUpperCase()} ${spec.path} is missing from /openapi.json`);
    }
    const mounted = new Set([...table, ...testRoutes()].map(({ spec }) => `${spec.method} ${spec.path}`));
    for (const [path, operations] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(operations))
        assert.ok(mounted.has(`${method} ${path}`), `${method} ${path} is documented but not mounted`);
    }
  });

  it('each operation has a summary, a unique operationId, responses and the security of its auth kind', () => {
    const seen = new Set<string>();
    for (const { spec } of routeTable()) {
      const op = doc.paths[spec.path][spec.method];
      const name = `${spec.method.toUpperCase()} ${spec.path}`;
      assert.ok(typeof op.summary === 'string' && op.summary.length > 0, `${name} has no summary`);
      assert.ok(typeof op.operationId === 'string' && op.operationId.length > 0, `${name} has no operationId`);
      assert.ok(!seen.has(op.operationId), `operationId ${op.operationId} is used twice`);
      seen.add(op.operationId);
      assert.ok(
        Object.keys(op.responses).some((status) => /^[23]\d\d$/.test(status)),
        `${name} documents no success response`,
      );
      assert.deepEqual(op.security, securityOf(spec.auth), `${name} security does not match auth ${spec.auth.kind}`);
      for (const requirement of op.security) {
        for (const scheme of Object.keys(requirement))
          assert.ok(doc.components.securitySchemes[scheme], `${name} names unknown scheme ${scheme}`);
      }
      if (spec.auth.kind !== 'none') assert.ok(op.responses['401'], `${name} does not document its 401`);
      if (spec.idempotent) {
        assert.ok(
          op.parameters.some((p: { name: string; in: string }) => p.in === 'header' && p.name === 'Idempotency-Key'),
          `${name} does not document Idempotency-Key`,
        );
        assert.match(op.responses['400'].description, /invalid_idempotency_key/);
        assert.match(op.responses['409'].description, /idempotency_key_reused/);
      }
      if (spec.params) {
        for (const name of spec.path.match(/\{(\w+)\}/g) ?? []) {
          assert.ok(
            op.parameters.some((p: { name: string; in: string }) => p.in === 'path' && `{${p.name}}` === name),
            `${spec.path} does not document ${name}`,
          );
        }
      }
    }
  });

  it('every authenticated route of the table is mounted and refuses a request without a credential', async () => {
    for (const { spec } of routeTable().filter((r) => r.spec.auth.kind !== 'none')) {
      const path = spec.path.replace(/\{\w+\}/g, () => randomUUID());
      const res = await call(spec.method.toUpperCase(), path);
      assert.equal(res.status, 401, `${spec.method.toUpperCase()} ${spec.path}: ${res.text}`);
    }
  });

  it('every resource is a named component, and the routes that answer it reference it by $ref', () => {
    const schemas = doc.components.schemas;
    for (const name of RESOURCES) assert.ok(schemas[name], `${name} is not in components.schemas`);
    const answer = (path: string, method: string, status = '200') =>
      doc.paths[path][method].responses[status].content['application/json'].schema;
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

    assert.deepEqual(answer('/api/marketing/content/{id}', 'get'), ref('ContentItem'));
    assert.deepEqual(answer('/v1/email/messages/{id}', 'get'), ref('EmailMessage'));
    assert.deepEqual(answer('/api/crm/contacts/{id}', 'patch'), ref('Contact'));
    assert.deepEqual(answer('/api/jobs/{id}', 'get'), ref('Job'));
    assert.deepEqual(answer('/api/jobs', 'get'), ref('JobList'));
    assert.deepEqual(schemas.JobList.properties.data.items, ref('JobSummary'));
    assert.deepEqual(answer('/api/crm/contacts', 'get'), ref('ContactList'));
    assert.deepEqual(schemas.ContactList.properties.contacts.items, ref('Contact'));
    assert.deepEqual(schemas.ContentVersion.properties.snapshot.$ref, ref('ContentItem').$ref);
  });

  it('a route that answers a person a page lists it as text/html beside its JSON, never as a JSON string', () => {
    const pages = [
      ['/api/oauth/site-platform/callback', 'get'],
      ['/api/oauth/commerce/callback', 'get'],
      ['/v1/email/unsubscribe/{token}', 'post'],
    ];
    for (const [path, method] of pages) {
      const content = doc.paths[path][method].responses['200'].content;
      assert.deepEqual(Object.keys(content), ['application/json', 'text/html'], `${method} ${path}`);
      assert.deepEqual(content['text/html'].schema, { $ref: '#/components/schemas/HtmlPage' });
      const json = content['application/json'].schema;
      const resolved = json.$ref ? doc.components.schemas[json.$ref.slice(21)] : json;
      assert.equal(resolved.type, 'object', `${method} ${path}: the JSON answer is an object, not a union with the page`);
    }
  });

  it('every $ref of the document names a component it holds', () => {
    const dangling = new Set<string>();
    JSON.stringify(doc, (key, value) => {
      if (key === '$ref' && !(value.startsWith('#/components/schemas/') && doc.components.schemas[value.slice(21)])) dangling.add(value);
      return value;
    });
    assert.deepEqual([...dangling], []);
  });

  it('the document builds from the route table (no schema id names two shapes), and every coded error is the Error component', () => {
    const built = buildOpenApi(routeTable(), routeAuth.docs);
    assert.ok(built.components.schemas.Error);
    for (const { spec } of routeTable()) {
      const operation = built.paths[spec.path][spec.method] as { responses: Record<string, any> };
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400 || status in spec.responses) continue;
        assert.deepEqual(
          response.content['application/json'].schema,
          { $ref: '#/components/schemas/Error' },
          `${spec.method.toUpperCase()} ${spec.path} ${status}`,
        );
      }
    }
  });

  it('/docs answers an HTML page', async () => {
    const res = await call('GET', '/docs');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(res.text, /<html/i);
    assert.match(res.text, /\/openapi\.json/);
  });
});
