/**
 * PATCH (RFC 7644 §3.5.2) applied to a canonical SCIM document: add, remove and replace with
 * attribute paths, sub-attribute paths, value filters (`emails[type eq "work"].value`) and
 * no-path operations. It accepts what Entra ID and Okta send: capitalised `op` names,
 * "True"/"False" strings, no-path values keyed by dotted (`name.givenName`) or URN-qualified
 * names, `remove` of a multi-valued attribute with a list of values, and a value-filtered
 * path that matches nothing (it then creates the element the filter describes, as Entra
 * expects for `emails[type eq "work"].value`).
 */
import type { Filter } from 'scim2-parse-filter';
import { clears, coerceSingle, coerceValue, isEmptyElement, isObject, storedValue, type Json, type JsonObject } from './coerce.ts';
import { invalidPath, invalidSyntax, invalidValue, mutability, noTarget } from './errors.ts';
import { parseFilter } from './filter.ts';
import { extensionOf, namesUnknownSchema, resolvePath, type AttrDef, type ResourceSchema } from './schema-catalog.ts';

export type PatchOpName = 'add' | 'remove' | 'replace';

export interface PatchOperation {
  op: PatchOpName;
  path?: string;
  value?: unknown;
}

export interface PatchTarget {
  urn: string | null;
  def: AttrDef;
  filter: Filter | null;
  sub: AttrDef | null;
}

/** Validates the PatchOp message's operations (op names case-insensitive, as Entra capitalises them). */
export function normaliseOperations(operations: unknown): PatchOperation[] {
  if (!Array.isArray(operations) || operations.length === 0) throw invalidSyntax('Operations must be a non-empty array');
  return operations.map((raw, i) => {
    if (!isObject(raw)) throw invalidSyntax(`Operations[${i}] must be an object`);
    const op = typeof raw.op === 'string' ? raw.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'remove' && op !== 'replace') throw invalidSyntax(`Operations[${i}].op must be add, remove or replace`);
    if (raw.path !== undefined && (typeof raw.path !== 'string' || raw.path.trim() === '')) throw invalidPath(`Operations[${i}].path must be a non-empty string`);
    const path = typeof raw.path === 'string' ? raw.path.trim() : undefined;
    if (op !== 'remove' && !('value' in raw)) throw invalidSyntax(`Operations[${i}] (${op}) needs a value`);
    return { op, path, value: raw.value };
  });
}

/** Parses `attr`, `attr.sub`, `urn:…:attr`, `attr[filter]` and `attr[filter].sub`. */
export function parsePatchPath(schema: ResourceSchema, path: string): PatchTarget {
  const open = path.indexOf('[');
  if (open === -1) {
    const resolved = resolvePath(schema, path);
    if (!resolved) throw invalidPath(`unknown attribute path ${path}`);
    return { ...resolved, filter: null };
  }
  const close = path.lastIndexOf(']');
  if (close < open) throw invalidPath(`unbalanced brackets in ${path}`);
  const resolved = resolvePath(schema, path.slice(0, open));
  if (!resolved || resolved.sub || !resolved.def.multiValued || resolved.def.type !== 'complex') {
    throw invalidPath(`${path.slice(0, open)} is not a multi-valued complex attribute`);
  }
  let filter: Filter;
  try {
    filter = parseFilter(path.slice(open + 1, close));
  } catch {
    throw invalidPath(`the value filter of ${path} could not be parsed`);
  }
  const rest = path.slice(close + 1);
  let sub: AttrDef | null = null;
  if (rest !== '') {
    if (!rest.startsWith('.')) throw invalidPath(`unexpected ${rest} in ${path}`);
    sub = resolved.def.subAttributes?.find((s) => s.name.toLowerCase() === rest.slice(1).toLowerCase()) ?? null;
    if (!sub) throw invalidPath(`${resolved.def.name} has no sub-attribute ${rest.slice(1)}`);
  }
  return { urn: resolved.urn, def: resolved.def, filter, sub };
}

/** Applies every operation in order to a copy of `doc`; either all apply or an error is thrown. */
export function applyPatch(schema: ResourceSchema, doc: JsonObject, operations: PatchOperation[]): JsonObject {
  const result = structuredClone(doc);
  for (const operation of operations) {
    if (operation.path === undefined) {
      applyWithoutPath(schema, result, operation);
      continue;
    }
    // Entra sends an attribute an administrator mapped to an extension of its own in the same
    // PATCH as the rest (a deactivation included): refused, the whole PATCH would fail on every sync.
    if (namesUnknownSchema(schema, operation.path)) continue;
    const extension = extensionOf(schema, operation.path);
    if (extension) {
      if (operation.op === 'remove') delete result[extension.urn];
      else applyWithoutPath(schema, result, { ...operation, value: { [extension.urn]: operation.value as Json } });
      continue;
    }
    applyAt(result, parsePatchPath(schema, operation.path), operation.op, operation.value, true);
  }
  // An extension whose every attribute went is no longer part of the resource (nor of its `schemas`).
  for (const { urn } of schema.extensions) {
    const extension = result[urn];
    if (isObject(extension) && Object.keys(extension).length === 0) delete result[urn];
  }
  return result;
}

function applyWithoutPath(schema: ResourceSchema, doc: JsonObject, operation: PatchOperation): void {
  if (operation.op === 'remove') throw noTarget('remove needs a path');
  if (!isObject(operation.value)) throw invalidValue('an operation without a path needs an object value');
  for (const [key, value] of Object.entries(operation.value)) {
    const extension = extensionOf(schema, key);
    if (extension) {
      if (!isObject(value)) throw invalidValue(`${extension.urn} must be an object`);
      for (const [subKey, subValue] of Object.entries(value)) {
        const target = resolvePath(schema, `${extension.urn}:${subKey}`);
        if (target && target.def.mutability !== 'readOnly') applyAt(doc, { ...target, filter: null }, operation.op, subValue, false);
      }
      continue;
    }
    if (key.toLowerCase() === 'schemas') continue;
    const target = key.includes('[') ? parsePatchPath(schema, key) : resolvePath(schema, key);
    if (!target || (target.sub ?? target.def).mutability === 'readOnly' || target.def.mutability === 'readOnly') continue;
    applyAt(doc, { filter: null, ...target }, operation.op, value, false);
  }
}

function containerOf(doc: JsonObject, urn: string | null, create: boolean): JsonObject | undefined {
  if (!urn) return doc;
  const existing = doc[urn];
  if (isObject(existing)) return existing;
  if (!create) return undefined;
  const made: JsonObject = {};
  doc[urn] = made;
  return made;
}

function applyAt(doc: JsonObject, target: PatchTarget, op: PatchOpName, value: unknown, explicit: boolean): void {
  const { def, sub, filter } = target;
  if (explicit && (def.mutability === 'readOnly' || sub?.mutability === 'readOnly')) {
    throw mutability(`${def.name}${sub ? '.' + sub.name : ''} is read-only`);
  }
  const container = containerOf(doc, target.urn, op !== 'remove');
  if (!container) return;
  if (op === 'remove') return removeAt(container, target, value);
  if (clears(sub ?? def, value)) {
    // Okta and Entra clear an attribute by replacing it with null or "", a filtered one too
    // (`emails[type eq "work"].value`: Entra's validator).
    if (filter) return removeAt(container, target, undefined);
    if (sub && !def.multiValued && isObject(container[def.name])) container[def.name] = omit(container[def.name] as JsonObject, sub.name);
    else if (!sub) delete container[def.name];
    return;
  }
  if (filter) return applyToMatches(container, target, op, value);
  if (sub) {
    if (def.multiValued) throw invalidPath(`${def.name}.${sub.name} needs a value filter, e.g. ${def.name}[type eq "work"].${sub.name}`);
    const current = isObject(container[def.name]) ? (container[def.name] as JsonObject) : {};
    current[sub.name] = coerceSingle(sub, value, `${def.name}.${sub.name}`);
    container[def.name] = current;
    return;
  }
  const coerced = storedValue(def, value, def.name);
  if (def.multiValued) {
    const incoming = (coerced ?? []) as Json[];
    const existing = op === 'add' && Array.isArray(container[def.name]) ? (container[def.name] as Json[]) : [];
    const merged = [...existing];
    for (const item of incoming) if (!merged.some((e) => sameElement(e, item))) merged.push(item);
    setOrDelete(container, def.name, withSinglePrimary(merged, incoming));
  } else if (def.type === 'complex') {
    // Sub-attributes not given stay (RFC 7644 §3.5.2.3); one given as null or "" goes, and the
    // attribute with it when none is left.
    const merged: JsonObject = { ...(isObject(container[def.name]) ? (container[def.name] as JsonObject) : {}), ...(isObject(coerced) ? coerced : {}) };
    for (const sub of clearedSubAttributes(def, value)) delete merged[sub];
    if (Object.keys(merged).length > 0) container[def.name] = merged;
    else delete container[def.name];
  } else {
    container[def.name] = coerced;
  }
}

/** The sub-attributes of `def` that `value` gives as null or "". */
function clearedSubAttributes(def: AttrDef, value: unknown): string[] {
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, raw]) => {
    const sub = def.subAttributes?.find((s) => s.name.toLowerCase() === key.toLowerCase());
    return sub && clears(sub, raw) ? [sub.name] : [];
  });
}

function applyToMatches(container: JsonObject, target: PatchTarget, op: PatchOpName, value: unknown): void {
  const { def, sub, filter } = target;
  const elements = Array.isArray(container[def.name]) ? (container[def.name] as Json[]) : [];
  const patchOf = (): JsonObject => {
    if (sub) return { [sub.name]: coerceSingle(sub, value, `${def.name}.${sub.name}`) };
    const coerced = coerceSingle(def, value, def.name);
    if (!isObject(coerced)) throw invalidValue(`${def.name} elements are objects`);
    return coerced;
  };
  const patch = patchOf();
  // The elements as patched: when the patch makes them primary, they are the ones that stay so.
  const patched: JsonObject[] = [];
  const next = elements.map((element) => {
    if (!isObject(element) || !matches(filter!, element, def)) return element;
    const updated = { ...element, ...patch };
    patched.push(updated);
    return updated;
  });
  if (patched.length === 0) {
    const seed = elementFromFilter(filter!, def);
    if (!seed) {
      if (op === 'replace') throw noTarget(`no ${def.name} element matches the filter`);
      return;
    }
    const made = { ...seed, ...patch };
    patched.push(made);
    next.push(made);
  }
  container[def.name] = withSinglePrimary(next, patch.primary === true ? patched : []);
}

function removeAt(container: JsonObject, target: PatchTarget, value: unknown): void {
  const { def, sub, filter } = target;
  const current = container[def.name];
  if (current === undefined) return;
  if (filter) {
    const elements = Array.isArray(current) ? current : [];
    const next = sub
      ? elements.map((e) => (isObject(e) && matches(filter, e, def) ? omit(e, sub.name) : e)).filter((e) => !isEmptyElement(e))
      : elements.filter((e) => !(isObject(e) && matches(filter, e, def)));
    setOrDelete(container, def.name, next);
    return;
  }
  if (sub) {
    if (Array.isArray(current)) setOrDelete(container, def.name, current.map((e) => (isObject(e) ? omit(e, sub.name) : e)));
    else if (isObject(current)) container[def.name] = omit(current, sub.name);
    return;
  }
  if (def.multiValued && value !== undefined && value !== null && Array.isArray(current)) {
    // `remove` with a list of values (Okta, Entra): those elements go, the rest stay.
    const doomed = coerceValue(def, value, def.name) as Json[];
    setOrDelete(container, def.name, current.filter((e) => !doomed.some((d) => sameElement(e, d))));
    return;
  }
  delete container[def.name];
}

function setOrDelete(container: JsonObject, name: string, elements: Json[]): void {
  if (elements.length === 0) delete container[name];
  else container[name] = elements;
}

function omit(object: JsonObject, key: string): JsonObject {
  const copy = { ...object };
  delete copy[key];
  return copy;
}

/** Two elements are the same when their `value`s are equal (or the whole elements, lacking one). */
function sameElement(a: Json, b: Json): boolean {
  if (isObject(a) && isObject(b) && a.value !== undefined && b.value !== undefined) return String(a.value) === String(b.value);
  return JSON.stringify(a) === JSON.stringify(b);
}

/** RFC 7643 §2.4: at most one element is primary; a newly primary element wins. */
function withSinglePrimary(elements: Json[], incoming: Json[]): Json[] {
  const newPrimary = incoming.find((e) => isObject(e) && e.primary === true);
  const primaries = elements.filter((e) => isObject(e) && e.primary === true);
  if (primaries.length <= 1) return elements;
  const keep = newPrimary
    ? (elements.find((e) => e === newPrimary) ?? elements.find((e) => isObject(e) && isObject(newPrimary) && e.primary === true && sameElement(e, newPrimary)))
    : primaries[0];
  return elements.map((e) => (isObject(e) && e.primary === true && e !== keep ? { ...e, primary: false } : e));
}

/** Evaluates a value filter against one element of a multi-valued attribute. */
export function matches(filter: Filter, element: JsonObject, parent: AttrDef): boolean {
  switch (filter.op) {
    case 'and':
      return (filter as { filters: Filter[] }).filters.every((f) => matches(f, element, parent));
    case 'or':
      return (filter as { filters: Filter[] }).filters.some((f) => matches(f, element, parent));
    case 'not':
      return !matches((filter as { filter: Filter }).filter, element, parent);
    case '[]':
      throw invalidPath('value filters cannot be nested');
  }
  const leaf = filter as { op: string; attrPath: string; compValue?: unknown };
  const name = leaf.attrPath.toLowerCase().startsWith(parent.name.toLowerCase() + '.') ? leaf.attrPath.slice(parent.name.length + 1) : leaf.attrPath;
  const sub = parent.subAttributes?.find((s) => s.name.toLowerCase() === name.toLowerCase());
  if (!sub) throw invalidPath(`${parent.name} has no sub-attribute ${leaf.attrPath}`);
  const actual = element[sub.name];
  if (leaf.op === 'pr') return actual !== undefined && actual !== null && actual !== '';
  if (actual === undefined || actual === null) return leaf.op === 'ne';
  const fold = (v: unknown) => (typeof v === 'string' && !sub.caseExact ? v.toLowerCase() : v);
  const a = fold(actual);
  const b = fold(sub.type === 'boolean' && typeof leaf.compValue === 'string' ? leaf.compValue.toLowerCase() === 'true' : leaf.compValue);
  switch (leaf.op) {
    case 'eq': return a === b;
    case 'ne': return a !== b;
    case 'co': return typeof a === 'string' && typeof b === 'string' && a.includes(b);
    case 'sw': return typeof a === 'string' && typeof b === 'string' && a.startsWith(b);
    case 'ew': return typeof a === 'string' && typeof b === 'string' && a.endsWith(b);
    case 'gt': return typeof a === typeof b && (a as string) > (b as string);
    case 'ge': return typeof a === typeof b && (a as string) >= (b as string);
    case 'lt': return typeof a === typeof b && (a as string) < (b as string);
    case 'le': return typeof a === typeof b && (a as string) <= (b as string);
  }
  throw invalidPath(`unknown operator ${leaf.op}`);
}

/** The element a filter made only of `eq` tests joined by `and` describes, or undefined. */
function elementFromFilter(filter: Filter, parent: AttrDef): JsonObject | undefined {
  const tests: Filter[] = filter.op === 'and' ? (filter as { filters: Filter[] }).filters : [filter];
  const element: JsonObject = {};
  for (const test of tests) {
    if (test.op !== 'eq') return undefined;
    const leaf = test as { attrPath: string; compValue: unknown };
    const sub = parent.subAttributes?.find((s) => s.name.toLowerCase() === leaf.attrPath.toLowerCase());
    if (!sub || sub.mutability === 'readOnly') return undefined;
    element[sub.name] = coerceSingle(sub, leaf.compValue, `${parent.name}.${sub.name}`);
  }
  return element;
}
