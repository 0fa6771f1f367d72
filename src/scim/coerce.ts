/**
 * Turns what a client sent into a canonical SCIM document: attribute names in their schema
 * spelling (names are case-insensitive, RFC 7643 §2.1), values checked against their types
 * (wrong type → 400 invalidValue), read-only attributes dropped (RFC 7643 §2.2: ignored on
 * input), attributes of no schema ignored. What Entra ID sends is accepted as meant:
 * booleans as "True"/"False" strings, and a complex attribute given as its plain `value`
 * (enterprise `manager` as an id string).
 */
import { invalidValue } from './errors.ts';
import { findAttr, extensionOf, type AttrDef, type ResourceSchema } from './schema-catalog.ts';
import { isRfc3339DateTime } from '../platform/clock.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether `value` given for `def` means "no value": null, or an empty string for an attribute a
 * resource may lack. Entra's provisioning clears an attribute by sending "" (a title, an e-mail, the
 * manager); stored, it would be a value: a group member shown as "", an ID token's empty name.
 */
export function clears(def: AttrDef, value: unknown): boolean {
  // A password is never "cleared" by "": that is a password, and the policy refuses it.
  return value === null || (value === '' && !def.required && def.mutability !== 'writeOnly' && (def.type === 'string' || def.type === 'reference' || def.type === 'complex'));
}

/**
 * Whether `body` does not name the attribute at all (names are case-insensitive): what a replace
 * leaves out, unlike what it sends as null or "" to remove.
 */
export function leavesOut(body: JsonObject, name: string): boolean {
  const lower = name.toLowerCase();
  return !Object.keys(body).some((key) => key.toLowerCase() === lower);
}

/** A single (non-array) value of `def`'s type, or throws invalidValue. */
export function coerceSingle(def: AttrDef, value: unknown, where: string): Json {
  switch (def.type) {
    case 'string':
    case 'reference':
      if (typeof value === 'string') return value;
      break;
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
      break;
    case 'integer':
      if (typeof value === 'number' && Number.isInteger(value)) return value;
      break;
    case 'decimal':
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      break;
    case 'dateTime':
      if (typeof value === 'string' && isRfc3339DateTime(value)) return value;
      break;
    case 'complex':
      if (isObject(value)) return coerceComplex(def, value, where);
      // A complex attribute given as its value alone (Entra: manager as an id string).
      if (typeof value === 'string' && def.subAttributes && findAttr(def.subAttributes, 'value')) return { value };
      break;
  }
  throw invalidValue(`${where} must be ${article(def.type)} ${def.type}`);
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? 'an' : 'a';
}

function coerceComplex(def: AttrDef, value: JsonObject, where: string): JsonObject {
  const out: JsonObject = {};
  for (const [key, raw] of Object.entries(value)) {
    const sub = findAttr(def.subAttributes ?? [], key);
    if (!sub || clears(sub, raw)) continue;
    out[sub.name] = coerceSingle(sub, raw, `${where}.${sub.name}`);
  }
  return out;
}

/** A value of `def` (array for multi-valued attributes), or null to clear it. */
export function coerceValue(def: AttrDef, value: unknown, where: string): Json {
  if (value === null) return null;
  if (!def.multiValued) {
    if (Array.isArray(value)) throw invalidValue(`${where} is single-valued`);
    return coerceSingle(def, value, where);
  }
  const items = Array.isArray(value) ? value : [value];
  const elements = items.map((item, i) => coerceSingle(def, item, `${where}[${i}]`));
  // RFC 7643 §2.4: "primary" is true on at most one element.
  if (elements.filter((e) => isObject(e) && e.primary === true).length > 1) throw invalidValue(`${where}: at most one element may be primary`);
  return elements;
}

/** An element describing nothing (`{"type":"mobile"}` with no number): it is no element. */
export function isEmptyElement(element: Json): boolean {
  return isObject(element) && element.value === undefined && Object.keys(element).every((key) => key === 'type' || key === 'primary' || key === 'display');
}

/**
 * A coerced value of `def` without what holds nothing: elements describing nothing, then the list
 * if none is left, or a complex value with no sub-attribute left; null when nothing is. RFC 7643
 * §2.5 makes an empty value the same as no value, and stored it would be shown back
 * (`"manager": {}`, `"roles": []`).
 */
export function withoutEmpty(def: AttrDef, value: Json): Json {
  if (Array.isArray(value)) {
    const kept = value.filter((element) => !isEmptyElement(element));
    return kept.length > 0 ? kept : null;
  }
  if (def.type === 'complex' && isObject(value) && Object.keys(value).length === 0) return null;
  return value;
}

/** What a client's value of `def` stores: coerced, without what holds nothing (null: nothing). */
export function storedValue(def: AttrDef, value: unknown, where: string): Json {
  return withoutEmpty(def, coerceValue(def, value, where));
}

/** True when the attribute is never taken from a client. */
export function isReadOnly(def: AttrDef): boolean {
  return def.mutability === 'readOnly';
}

/**
 * The canonical document of a resource body: core attributes by name, each extension's
 * attributes under its URN. `id`, `meta`, `schemas` and read-only attributes are dropped.
 */
export function coerceResource(schema: ResourceSchema, body: JsonObject, commonWritable: AttrDef[]): JsonObject {
  const doc: JsonObject = {};
  for (const [key, raw] of Object.entries(body)) {
    const extension = extensionOf(schema, key);
    if (extension) {
      if (!isObject(raw)) throw invalidValue(`${extension.urn} must be an object`);
      const ext: JsonObject = {};
      for (const [subKey, subRaw] of Object.entries(raw)) {
        const def = findAttr(extension.attributes, subKey);
        if (!def || isReadOnly(def) || clears(def, subRaw)) continue;
        const value = storedValue(def, subRaw, subKey);
        if (value !== null) ext[def.name] = value;
      }
      // An extension with no attribute is not part of the resource, nor of its `schemas`.
      if (Object.keys(ext).length > 0) doc[extension.urn] = ext;
      continue;
    }
    const def = findAttr([...commonWritable, ...schema.attributes], key);
    if (!def || isReadOnly(def) || clears(def, raw)) continue;
    const value = storedValue(def, raw, def.name);
    if (value !== null) doc[def.name] = value;
  }
  return doc;
}
