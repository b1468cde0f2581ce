import assert from 'node:assert/strict';
import { REDACTED_SEGMENT, redactPath, redactUrl } from '../../src/telemetry/tracingRedaction';

describe('tracing: what a span may say about a URL', () => {
  it('drops the query string (job tokens, OAuth codes, search terms)', () => {
    assert.equal(redactPath('/api/jobs/123/events?token=abc&x=1'), '/api/jobs/123/events');
    assert.equal(
      redactUrl('https://api.search.example/res/v1/web/search?q=secret+plans&count=5'),
      'https://api.search.example/res/v1/web/search',
    );
  });

  it('replaces capability tokens in paths (media links, webhook receiver url tokens, customer webhook URLs)', () => {
    const token = 'kq3F0v7cZ1mYp9Qe2XrLw8tA5sNbHdGj4uVi6oKyRzE';
    assert.equal(redactPath(`/media/${token}/cover.png`), `/media/${REDACTED_SEGMENT}/cover.png`);
    assert.equal(
      redactPath(`/api/webhooks/site-platform/0b6a1f9e-3c2d-4e5f-8a7b-9c0d1e2f3a4b/${token}`),
      `/api/webhooks/site-platform/0b6a1f9e-3c2d-4e5f-8a7b-9c0d1e2f3a4b/${REDACTED_SEGMENT}`,
    );
    assert.equal(
      redactUrl('https://hooks.slack.example/services/T0AB12CD3/B0EF45GH6/XyZ123abcDEF456ghiJKL789'),
      `https://hooks.slack.example/services/T0AB12CD3/B0EF45GH6/${REDACTED_SEGMENT}`,
    );
  });

  it('keeps route words, short ids and UUIDs, and drops user info', () => {
    assert.equal(redactPath('/api/agent/marketing/content/research'), '/api/agent/marketing/content/research');
    assert.equal(redactPath('/admin/api/2025-01/graphql.json'), '/admin/api/2025-01/graphql.json');
    assert.equal(
      redactUrl('https://user:pass@shop.example/api/jobs/0b6a1f9e-3c2d-4e5f-8a7b-9c0d1e2f3a4b'),
      'https://shop.example/api/jobs/0b6a1f9e-3c2d-4e5f-8a7b-9c0d1e2f3a4b',
    );
  });
});
