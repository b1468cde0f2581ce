import { call } from './http';

/**
 * The app's /openapi.json with every `$ref` replaced by the schema it names, for tests that read a schema's fields
 * (`…schema.properties.score`) whether the schema is inline or a named component.
 */
export async function dereferencedOpenApi(): Promise<any> {
  const { body: doc } = await call('GET', '/openapi.json');
  const resolved = new Map<string, unknown>();
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/')) {
      if (!resolved.has(ref)) {
        const target = ref
          .slice(2)
          .split('/')
          .reduce<any>((at, key) => at?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
        const copy: Record<string, unknown> = {};
        resolved.set(ref, copy); // recursive schemas end at this same object
        Object.assign(copy, walk(target));
      }
      return resolved.get(ref);
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
  };
  return walk(doc);
}
