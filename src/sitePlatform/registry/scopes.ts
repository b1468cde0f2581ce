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

/** The required scopes the grant lacks, in the order they were required. */
export function missingScopes(granted: string | readonly string[], required: readonly string[]): string[] {
  const have = parseScopes(granted);
  return required.filter((s) => !have.has(canonical(s)));
}
