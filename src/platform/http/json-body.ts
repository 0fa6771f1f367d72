/**
 * JSON request bodies (application/json, application/scim+json), read as RFC 8259 and I-JSON
 * (RFC 7493) say a body exchanged between systems is:
 * - UTF-8 (§8.1): a body that is not valid UTF-8 is refused, not decoded with U+FFFD in place
 *   of what was sent, and a charset other than UTF-8 is refused (415);
 * - each member name once in an object (RFC 7493 §2.3): `{"amount":1,"amount":2}` is refused,
 *   since a proxy or an audit tap that keeps the first value would see another request than the
 *   one performed, and an Idempotency-Key would count the two spellings as one request;
 * - no `__proto__` member (and no `constructor.prototype`), refused by fastify's parser;
 * - an empty body is no body: many clients and identity-provider connectors send
 *   Content-Type: application/json on every request, DELETE and body-less POSTs included. A
 *   route that needs a body still says so, through its schema.
 */
import { isUtf8 } from 'node:buffer';
import type { FastifyError, FastifyRequest } from 'fastify';
import { problem } from '../errors/catalogue.ts';

type Done = (error: Error | null, body?: unknown) => void;
type TextParser = (request: FastifyRequest, body: string, done: Done) => void;
export type BufferParser = (request: FastifyRequest, body: Buffer, done: Done) => void;

/** A parser for fastify's `parseAs: 'buffer'` that checks the body as above, then lets `parse` (fastify's JSON parser) read it. */
export function jsonBody(parse: TextParser): BufferParser {
  return (request, body, done) => {
    if (body.length === 0) {
      done(null, undefined);
      return;
    }
    const charset = charsetOf(request.headers['content-type']);
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      done(problem('unsupported_media_type', { detail: `JSON is exchanged as UTF-8 (RFC 8259 §8.1); charset=${charset} is not accepted` }));
      return;
    }
    if (!isUtf8(body)) {
      done(problem('malformed_json', { detail: 'The body is not valid UTF-8 (RFC 8259 §8.1)' }));
      return;
    }
    const text = body.toString('utf8');
    parse(request, text, (error, value) => {
      if (error) {
        // The parser refuses valid JSON that holds a prototype key as it refuses broken JSON: say which it was.
        const prototypeKey = (error as FastifyError).code === 'FST_ERR_CTP_INVALID_JSON_BODY' && isJson(text);
        done(prototypeKey ? problem('malformed_json', { detail: 'The body holds a "__proto__" member, or a "constructor" with a "prototype": refused, as they could change what every object inherits' }) : error);
        return;
      }
      const repeated = firstRepeatedMember(text);
      if (repeated !== undefined) {
        done(problem('malformed_json', { detail: `The member ${JSON.stringify(repeated.name)} is given twice in the same object (at ${repeated.pointer || '/'}); each name may appear once (RFC 7493 §2.3)` }));
        return;
      }
      done(null, value);
    });
  };
}

/** The charset parameter of a media type, lower-cased and unquoted, if it has one. */
function charsetOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  for (const parameter of contentType.split(';').slice(1)) {
    const eq = parameter.indexOf('=');
    if (eq < 0 || parameter.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    return parameter.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
  }
  return undefined;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

interface Container {
  /** The names met so far, for an object; undefined for an array. */
  names: Set<string> | undefined;
  /** An object's next string is a name (after `{` or `,`); an array's position. */
  expectsName: boolean;
  index: number;
  /** The JSON Pointer of this container. */
  pointer: string;
}

const escapePointer = (name: string) => name.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * The first member name given twice in one object of `text`, which is valid JSON (it has just
 * been parsed), with the JSON Pointer of that object. One pass, no values built: names are
 * compared as JSON.parse reads them (escapes decoded), so `"a"` and `"\u0061"` are one name.
 */
export function firstRepeatedMember(text: string): { name: string; pointer: string } | undefined {
  // Only an object with two members can repeat one.
  if (text.indexOf(',') < 0) return undefined;
  const stack: Container[] = [];
  let pending = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      let escaped = false;
      for (i++; text.charCodeAt(i) !== 0x22; i++) {
        if (text.charCodeAt(i) === 0x5c /* \ */) {
          escaped = true;
          i++;
        }
      }
      const top = stack[stack.length - 1];
      if (top?.names !== undefined && top.expectsName) {
        const name = escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : text.slice(start + 1, i);
        if (top.names.has(name)) return { name, pointer: top.pointer };
        top.names.add(name);
        top.expectsName = false;
        pending = name;
      }
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const parent = stack[stack.length - 1];
      const pointer = parent === undefined ? '' : `${parent.pointer}/${parent.names !== undefined ? escapePointer(pending) : String(parent.index)}`;
      stack.push({ names: c === 0x7b ? new Set() : undefined, expectsName: true, index: 0, pointer });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1]!;
      top.expectsName = true;
      top.index++;
    }
  }
  return undefined;
}

/**
 * For APIs that take JSON: a form content type with an empty body is no body (`curl -d ''`, and
 * HTTP clients that put a form type on every POST, send it on actions that take none); a form
 * body with anything in it is refused as the media type it is.
 */
export const emptyFormOnly: BufferParser = (request, body, done) => {
  if (body.length === 0) {
    done(null, undefined);
    return;
  }
  done(problem('unsupported_media_type', { detail: `Content-Type ${request.headers['content-type'] ?? ''} is not accepted here: send the body as application/json` }));
};
