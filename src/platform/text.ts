/**
 * Lengths of text as limits count them: characters are Unicode code points (an emoji is one, as
 * JSON Schema's maxLength counts it), and bytes are those of the UTF-8 form a database stores.
 */

export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

export function utf8ByteCount(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * A JSON string literal of `value`. Text that needs no escaping (printable ASCII without `"` and
 * `\`: request ids, HTTP methods, tokens, scopes) is quoted as it is, without JSON.stringify's
 * scan for what to escape; anything else goes through JSON.stringify.
 */
export function jsonString(value: string): string {
  return NOTHING_TO_ESCAPE.test(value) ? `"${value}"` : JSON.stringify(value);
}

const NOTHING_TO_ESCAPE = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
