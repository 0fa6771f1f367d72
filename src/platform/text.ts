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
