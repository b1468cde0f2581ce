/** The scopes the service requests (doc3), sent comma-separated in the authorize URL. */
export const REQUESTED_SCOPES = [
  'read_products',
  'write_products',
  'read_orders',
  'read_customers',
  'write_customers',
  'read_content',
  'write_content',
  'read_themes',
  'write_themes',
] as const;

export const parseScope = (scope: string | null | undefined): string[] =>
  (scope ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Requested scopes the grant lacks. A `write_x` grant implies `read_x` on the platform, so it satisfies it
 * (the platform may report only the write scope).
 */
export function missingScopes(granted: string | null | undefined): string[] {
  const have = new Set(parseScope(granted));
  return REQUESTED_SCOPES.filter((s) => !have.has(s) && !(s.startsWith('read_') && have.has(`write_${s.slice(5)}`)));
}
