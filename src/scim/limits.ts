/**
 * How long the values a SCIM write stores may be, the same on every database; a longer value is
 * a 400 invalidValue (RFC 7644 §3.12) naming the attribute, never the value.
 *
 * Every stored string is a key of some index: userName and externalId of `users`, displayName
 * and externalId of `scim_groups`, and each other value (lower-cased) of `scim_user_values`.
 * PostgreSQL refuses an index entry above about 2,700 bytes, and UTF-8 takes up to 4 bytes a
 * character, so:
 * - identifiers (userName, externalId, a group's displayName, member ids) have at most 256
 *   characters, at most 1 KiB however written;
 * - any other string at most 1,024 characters and 2,048 bytes of UTF-8, lower-cased included
 *   (a lower-cased character may take more bytes), which leaves the other columns of the entry
 *   room under the limit.
 * The password is not stored as text; its bounds are the password policy's.
 */
import { characterCount, utf8ByteCount } from '../platform/text.ts';
import { isObject, type Json, type JsonObject } from './coerce.ts';
import { invalidValue } from './errors.ts';

export const MAX_IDENTIFIER_LENGTH = 256;
export const MAX_STRING_LENGTH = 1024;
export const MAX_STRING_BYTES = 2048;

/** Refuses an identifier longer than MAX_IDENTIFIER_LENGTH characters. */
export function checkIdentifierLength(where: string, value: string): void {
  if (characterCount(value) > MAX_IDENTIFIER_LENGTH) throw invalidValue(`${where} is longer than ${MAX_IDENTIFIER_LENGTH} characters`);
}

function checkStringLength(where: string, value: string): void {
  if (characterCount(value) > MAX_STRING_LENGTH) throw invalidValue(`${where} is longer than ${MAX_STRING_LENGTH} characters`);
  if (Math.max(utf8ByteCount(value), utf8ByteCount(value.toLowerCase())) > MAX_STRING_BYTES) {
    throw invalidValue(`${where} is longer than ${MAX_STRING_BYTES} bytes in UTF-8`);
  }
}

function checkNested(where: string, value: Json): void {
  if (typeof value === 'string') checkStringLength(where, value);
  else if (Array.isArray(value)) value.forEach((element, i) => checkNested(`${where}[${i}]`, element));
  else if (isObject(value)) for (const [key, inner] of Object.entries(value)) checkNested(`${where}.${key}`, inner);
}

/**
 * Checks every string of a canonical document (core attributes by name, extensions under their
 * URN): those named in `identifiers` as identifiers, the others as strings. `password` is left
 * to the password policy.
 */
export function checkLengths(doc: JsonObject, identifiers: readonly string[]): void {
  for (const [name, value] of Object.entries(doc)) {
    if (name === 'password') continue;
    if (identifiers.includes(name) && typeof value === 'string') checkIdentifierLength(name, value);
    else if (name.startsWith('urn:') && isObject(value)) for (const [key, inner] of Object.entries(value)) checkNested(`${name}:${key}`, inner);
    else checkNested(name, value);
  }
}
