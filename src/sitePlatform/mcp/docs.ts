/** Long OpenAPI prose of the MCP route, kept out of the route declaration. */

export const MCP =
  'Authorization: Bearer <agent API key>. A read-only key lists and calls only read tools. Each tool call runs as /api/agent/web/site-platform-ops would run it for the same key: same checks, gates, idempotency slot and audit.';
