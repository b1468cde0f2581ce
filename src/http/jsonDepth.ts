import { ApiError } from './errors';

/**
 * The deepest nesting of arrays and objects a client's JSON may have. Code that walks a value recursively (hashes,
 * JSON.stringify, schema checks, text extraction) then never overflows the stack on client input.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether JSON text nests arrays and objects deeper than `max`: one pass over its bytes, before any parse and without
 * recursion. Brackets inside strings do not count. UTF-8 never uses these ASCII bytes inside a multi-byte character.
 */
export function jsonNestsDeeperThan(json: Uint8Array | string, max = MAX_JSON_DEPTH): boolean {
  const bytes = typeof json === 'string' ? Buffer.from(json, 'utf8') : json;
  if (bytes.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if ((b === CLOSE_ARRAY || b === CLOSE_OBJECT) && depth > 0) depth--;
  }
  return false;
}

export const jsonTooDeep = () =>
  new ApiError(400, 'json_too_deep', `the JSON body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`);

/** 400 `json_too_deep` for client JSON nested past MAX_JSON_DEPTH; every reader of a client's JSON calls it first. */
export function assertJsonDepth(json: Uint8Array | string): void {
  if (jsonNestsDeeperThan(json)) throw jsonTooDeep();
}
