// Older grants carry the singular page:read / page:write; they satisfy pages:* and the reverse (spec, Versioning 4).
const ALIASES: Record<string, string> = {
  'page:read': 'pages:read',
  'page:write': 'pages:write',
};

const canonical = (scope: string): string => ALIASES[scope] ?? scope;

/** Splits a granted scope string as the platform returns it (space- or comma-separated). */
export function parseScopes(granted: string | readonly string[]): Set<string> {
  const list = typeof granted === 'string' ? granted.split(/[\s,]+/) : granted;
  return new Set(
    list
      .map((s) => s.trim())
      .filter(Boolean)
      .map(canonical),
  );
}

/** True when the granted scope string includes `required`, counting the page/pages aliases as one scope. */
export function scopeGranted(granted: string | readonly string[], required: string): boolean {
  return parseScopes(granted).has(canonical(required));
}

// Grant strings are few (one per connection) and checked on every call: each is split once.
const MAX_GRANTS = 256;
const grants = new Map<string, ReadonlySet<string>>();

function grantOf(granted: string | readonly string[]): ReadonlySet<string> {
  if (typeof granted !== 'string') return parseScopes(granted);
  let have = grants.get(granted);
  if (!have) {
    if (grants.size >= MAX_GRANTS) grants.clear();
    grants.set(granted, (have = parseScopes(granted)));
  }
  return have;
}

/** The required scopes the grant lacks, in the order they were required. */
export function missingScopes(granted: string | readonly string[], required: readonly string[]): string[] {
  const have = grantOf(granted);
  return required.filter((s) => !have.has(canonical(s)));
}
