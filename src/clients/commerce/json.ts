/**
 * The platform's JSON, read without losing an id: its ids are 64-bit integers, and JSON.parse rounds any integer
 * beyond 2^53 (9007199254740993 becomes …992, the id of another record). Such an integer is read as a string of
 * its exact digits; every other value is read as JSON.parse reads it. Our id readers take digit strings as ids.
 */
export function parsePlatformJson(text: string): unknown {
  // Fast path: without a run of 16 digits no integer can pass 2^53 (16 digits reach 10^15 at least, 2^53 ≈ 9·10^15).
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  return JSON.parse(quoteUnsafeIntegers(text));
}

/** The text with each integer literal beyond the safe range (outside strings) wrapped in quotes. */
function quoteUnsafeIntegers(text: string): string {
  let out = '';
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      continue;
    }
    if (c !== '-' && (c < '0' || c > '9')) continue;
    let end = i + 1;
    while (end < text.length && /[0-9.eE+-]/.test(text[end])) end++;
    const literal = text.slice(i, end);
    if (/^-?\d+$/.test(literal) && !Number.isSafeInteger(Number(literal))) {
      out += `${text.slice(from, i)}"${literal}"`;
      from = end;
    }
    i = end - 1;
  }
  return out + text.slice(from);
}
