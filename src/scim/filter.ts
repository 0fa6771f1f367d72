/**
 * SCIM filters (RFC 7644 §3.4.2.2) translated to SQL: the whole grammar (eq ne co sw ew pr
 * gt ge lt le, and/or/not, grouping, `attr[…]` value filters) becomes one WHERE expression
 * that the database evaluates with its indexes; nothing is filtered in memory. Strings
 * compare case-insensitively unless the schema says caseExact (RFC 7643 §2.1), against
 * stored lower-cased columns, so `userName eq "…"` is an index lookup. Ordering comparisons
 * on strings use binary collation on both databases so results never depend on the locale.
 *
 * A resource type describes where each attribute lives through a `FilterTarget`.
 */
import { sql, type Expression, type OrderByModifiersCallbackExpression, type RawBuilder, type SqlBool } from 'kysely';
import { parse, type Filter, type Compare } from 'scim2-parse-filter';
import { invalidFilter } from './errors.ts';
import { resolvePath, type AttrDef, type AttrType, type ResolvedPath, type ResourceSchema } from './schema-catalog.ts';
import type { SqlDialect } from '../platform/db/dialect.ts';

export type Condition = RawBuilder<SqlBool>;
type Value = Compare['compValue'];

/** How one comparison is expressed: against a scalar SQL operand, or through a sub-select. */
export type Operand =
  /** `trimmed`: the column holds the value trimmed (userName, a group's displayName), so `eq` compares the trimmed value. */
  | { kind: 'scalar'; sql: RawBuilder<unknown>; type: AttrType; caseExact: boolean; lowered: boolean; trimmed?: boolean }
  | { kind: 'constant'; value: string }
  | { kind: 'set'; build: (test: (value: Operand & { kind: 'scalar' }) => Condition) => Condition };

/**
 * Where each value a filter compares with goes into the SQL. By default the value itself (a
 * bound parameter); a caller compiling one query for every filter of the same shape passes a
 * binder that records the values and returns query slots. Values reach the SQL only through it,
 * and the SQL's structure never depends on them (only on their JSON type), so filters that
 * differ only in their values share one compiled query (see `filterShape`).
 */
export type Bind = (value: unknown) => unknown;

const asIs: Bind = (value) => value;

/** What the comparisons need to know of a translation. */
interface Comparing {
  dialect: SqlDialect;
  bind?: Bind;
}

export interface FilterTarget extends Comparing {
  schema: ResourceSchema;
  dialect: SqlDialect;
  /** The operand of an attribute path (sub-attribute defaulted to `value` for multi-valued complex). */
  operand(path: ResolvedPath): Operand;
  /** `attr[filter]`: the condition that some element of `path` satisfies `inner`. */
  elements(path: ResolvedPath, inner: (subOperand: (sub: AttrDef) => Operand) => Condition): Condition;
}

/** Parses a filter, turning every parser failure into 400 invalidFilter. */
export function parseFilter(text: string): Filter {
  if (text.length > 4096) throw invalidFilter('filter is longer than 4096 characters');
  const lifted = liftStrings(text);
  let filter: Filter;
  try {
    filter = parse(lifted.text);
  } catch (error) {
    const message = lifted.restoreIn((error as Error).message);
    throw invalidFilter(`filter could not be parsed: ${whatIsWrong(message)} (RFC 7644 §3.4.2.2)`);
  }
  return restoreStrings(filter, lifted.values);
}

/** A filter with each quoted value replaced by a placeholder, and the values it stood for. */
interface LiftedStrings {
  text: string;
  values: string[];
  /** A parser message with each placeholder shown as the value was written. */
  restoreIn(message: string): string;
}

/**
 * A compared value is a JSON literal (RFC 7644 §3.4.2.2), so `"CONTOSO\\jdoe"` holds one
 * backslash and `"\u0062"` is `b`. The parser's tokenizer doubles every backslash not before a
 * quote, which would make such values never match; so each quoted value is decoded here and
 * handed to the parser as `"<index>"`, which has no backslash to double.
 */
function liftStrings(text: string): LiftedStrings {
  const values: string[] = [];
  const literals: string[] = [];
  let out = '';
  let at = 0;
  for (let open = text.indexOf('"'); open !== -1; open = text.indexOf('"', at)) {
    const close = closingQuote(text, open);
    // An unterminated value is left to the parser, which explains it.
    if (close === -1) break;
    const literal = text.slice(open, close + 1);
    out += `${text.slice(at, open)}"${values.length}"`;
    values.push(decodeString(literal));
    literals.push(literal);
    at = close + 1;
  }
  out += text.slice(at);
  return {
    text: out,
    values,
    restoreIn: (message) => message.replace(/"(\d+)"/g, (placeholder, index: string) => literals[Number(index)] ?? placeholder),
  };
}

/** The index of the quote that ends the string opened at `open`, or -1; `\x` escapes x. */
function closingQuote(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

function decodeString(literal: string): string {
  try {
    return JSON.parse(literal) as string;
  } catch {
    const shown = literal.length > 60 ? `${literal.slice(0, 60)}…` : literal;
    throw invalidFilter(`filter could not be parsed: the value ${shown} is not a JSON string (an escape is \\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\u and four hex digits; RFC 7644 §3.4.2.2)`);
  }
}

/** Puts the decoded values back where their placeholders were parsed. */
function restoreStrings(filter: Filter, values: string[]): Filter {
  switch (filter.op) {
    case 'and':
    case 'or':
      return { ...filter, filters: filter.filters.map((f) => restoreStrings(f, values)) };
    case 'not':
      return { ...filter, filter: restoreStrings(filter.filter, values) };
    case '[]':
      return { ...filter, valFilter: restoreStrings(filter.valFilter, values) };
    case 'pr':
      return filter;
    default:
      return typeof filter.compValue === 'string' ? { ...filter, compValue: values[Number(filter.compValue)]! } : filter;
  }
}

/** The parser's message, which speaks of its own tokens, said in the terms of the filter syntax. */
function whatIsWrong(message: string): string {
  if (message.includes('is not json')) return 'a comparison needs a value after its operator, e.g. userName eq "bjensen"';
  if (message.includes("expected ')'")) return 'a "(" is not closed';
  if (message.includes("expected ']'")) return 'a "[" is not closed';
  if (message.includes('(EOT)')) return 'it ends where more was expected';
  if (message.includes('as valFilter operator')) return 'each comparison is an attribute, an operator (eq, ne, co, sw, ew, gt, ge, lt, le, or pr with no value) and a value, joined by and, or';
  return message.slice(0, 200);
}

export function translateFilter(target: FilterTarget, text: string): Condition {
  return translate(target, parseFilter(text), 0);
}

/**
 * The shape of a parsed filter: the filter with each compared value replaced by its JSON type.
 * Two filters of one shape translate to the same SQL with their values in the same order.
 */
export function filterShape(filter: Filter): string {
  return JSON.stringify(filter, (key, value: unknown) => (key === 'compValue' ? (value === null ? 'null' : typeof value) : value));
}

/** Translates an already parsed filter (e.g. the value filter of a PATCH path). */
export function translateAst(target: FilterTarget, filter: Filter): Condition {
  return translate(target, filter, 0);
}

function translate(target: FilterTarget, filter: Filter, depth: number): Condition {
  if (depth > 50) throw invalidFilter('filter is nested too deeply');
  switch (filter.op) {
    case 'and':
    case 'or': {
      const parts = (filter as { filters: Filter[] }).filters.map((f) => translate(target, f, depth + 1));
      return sql<SqlBool>`(${sql.join(parts, filter.op === 'and' ? sql` and ` : sql` or `)})`;
    }
    case 'not':
      return sql<SqlBool>`(not ${translate(target, (filter as { filter: Filter }).filter, depth + 1)})`;
    case '[]': {
      const { attrPath, valFilter } = filter as { attrPath: string; valFilter: Filter };
      const path = resolve(target.schema, attrPath);
      if (path.sub || path.def.type !== 'complex') throw invalidFilter(`${attrPath}[…] needs a complex attribute`);
      return target.elements(path, (subOperand) => translateElement(target, path.def, valFilter, subOperand, depth + 1));
    }
    default: {
      const leaf = filter as Compare | { op: 'pr'; attrPath: string };
      const path = resolve(target.schema, leaf.attrPath);
      return compare(target, target.operand(defaulted(path)), leaf.op, 'compValue' in leaf ? leaf.compValue : undefined, leaf.attrPath);
    }
  }
}

/** The filter inside `attr[…]`: attribute paths name sub-attributes of `parent`. */
function translateElement(target: FilterTarget, parent: AttrDef, filter: Filter, subOperand: (sub: AttrDef) => Operand, depth: number): Condition {
  if (depth > 50) throw invalidFilter('filter is nested too deeply');
  switch (filter.op) {
    case 'and':
    case 'or': {
      const parts = (filter as { filters: Filter[] }).filters.map((f) => translateElement(target, parent, f, subOperand, depth + 1));
      return sql<SqlBool>`(${sql.join(parts, filter.op === 'and' ? sql` and ` : sql` or `)})`;
    }
    case 'not':
      return sql<SqlBool>`(not ${translateElement(target, parent, (filter as { filter: Filter }).filter, subOperand, depth + 1)})`;
    case '[]':
      throw invalidFilter('value filters cannot be nested');
    default: {
      const leaf = filter as Compare | { op: 'pr'; attrPath: string };
      const name = leaf.attrPath.toLowerCase().startsWith(parent.name.toLowerCase() + '.')
        ? leaf.attrPath.slice(parent.name.length + 1)
        : leaf.attrPath;
      const sub = parent.subAttributes?.find((s) => s.name.toLowerCase() === name.toLowerCase());
      if (!sub) throw invalidFilter(`${parent.name} has no sub-attribute ${leaf.attrPath}`);
      return compare(target, subOperand(sub), leaf.op, 'compValue' in leaf ? leaf.compValue : undefined, `${parent.name}.${sub.name}`);
    }
  }
}

function resolve(schema: ResourceSchema, attrPath: string): ResolvedPath {
  const path = resolvePath(schema, attrPath);
  if (!path) throw invalidFilter(`unknown attribute ${attrPath}`);
  const leaf = path.sub ?? path.def;
  if (leaf.returned === 'never') throw invalidFilter(`${attrPath} cannot be filtered`);
  return path;
}

/** A complex attribute named without a sub-attribute means its `value` (RFC 7644 §3.4.2.2). */
function defaulted(path: ResolvedPath): ResolvedPath {
  if (path.sub || path.def.type !== 'complex') return path;
  const value = path.def.subAttributes?.find((s) => s.name === 'value');
  if (!value) throw invalidFilter(`${path.def.name} is complex: name one of its sub-attributes`);
  return { ...path, sub: value };
}

function compare(ctx: Comparing, operand: Operand, op: string, value: Value | undefined, where: string): Condition {
  if (operand.kind === 'set') {
    // "some value satisfies"; `ne` is the negation of `eq` (an absent attribute is "not equal").
    if (op === 'ne') return sql<SqlBool>`(not ${operand.build((o) => scalarTest(ctx, o, 'eq', value, where))})`;
    return operand.build((o) => scalarTest(ctx, o, op, value, where));
  }
  if (operand.kind === 'constant') {
    // The outcome is bound like a value, so the SQL does not depend on what was compared.
    const test = constantTest(operand.value, op, value, where);
    return sql<SqlBool>`(${(ctx.bind ?? asIs)(test ? 1 : 0)} = 1)`;
  }
  if (op === 'ne') return sql<SqlBool>`(not ${nullSafe(operand, scalarTest(ctx, operand, 'eq', value, where))})`;
  return scalarTest(ctx, operand, op, value, where);
}

function nullSafe(operand: Operand & { kind: 'scalar' }, test: Condition): Condition {
  return sql<SqlBool>`(${operand.sql} is not null and ${test})`;
}

function constantTest(actual: string, op: string, value: Value | undefined, where: string): boolean {
  if (op === 'pr') return true;
  if (typeof value !== 'string') throw invalidFilter(`${where} compares with a string`);
  const a = actual.toLowerCase();
  const b = value.toLowerCase();
  switch (op) {
    case 'eq': return a === b;
    case 'ne': return a !== b;
    case 'co': return a.includes(b);
    case 'sw': return a.startsWith(b);
    case 'ew': return a.endsWith(b);
    case 'gt': return a > b;
    case 'ge': return a >= b;
    case 'lt': return a < b;
    case 'le': return a <= b;
  }
  throw invalidFilter(`unknown operator ${op}`);
}

const ORDERING = new Set(['gt', 'ge', 'lt', 'le']);
const SQL_ORDERING: Record<string, string> = { gt: '>', ge: '>=', lt: '<', le: '<=' };

/** A comparison of a scalar operand, following RFC 7644 §3.4.2.2 per attribute type. */
export function scalarTest(ctx: Comparing, operand: Operand & { kind: 'scalar' }, op: string, value: Value | undefined, where: string): Condition {
  const bind = ctx.bind ?? asIs;
  const lhs = operand.sql;
  if (op === 'pr') {
    return operand.type === 'string' || operand.type === 'reference'
      ? sql<SqlBool>`(${lhs} is not null and ${lhs} <> '')`
      : sql<SqlBool>`(${lhs} is not null)`;
  }
  if (value === null) {
    if (op === 'eq') return sql<SqlBool>`(${lhs} is null)`;
    throw invalidFilter(`${where}: null can only be compared with eq or ne`);
  }
  switch (operand.type) {
    case 'boolean': {
      if (typeof value !== 'boolean') throw invalidFilter(`${where} is a boolean: compare it with true or false`);
      if (op !== 'eq') throw invalidFilter(`${where} is a boolean: only eq, ne and pr apply`);
      return sql<SqlBool>`(${lhs} = ${bind(operand.lowered ? String(value) : value ? 1 : 0)})`;
    }
    case 'dateTime': {
      const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
      if (Number.isNaN(ms)) throw invalidFilter(`${where} is a dateTime: compare it with an RFC 3339 instant`);
      if (op === 'eq') return sql<SqlBool>`(${lhs} = ${bind(ms)})`;
      if (ORDERING.has(op)) return sql<SqlBool>`(${lhs} ${sql.raw(SQL_ORDERING[op]!)} ${bind(ms)})`;
      throw invalidFilter(`${where} is a dateTime: ${op} does not apply`);
    }
    case 'integer':
    case 'decimal': {
      if (typeof value !== 'number') throw invalidFilter(`${where} is a number`);
      if (op === 'eq') return sql<SqlBool>`(${lhs} = ${bind(value)})`;
      if (ORDERING.has(op)) return sql<SqlBool>`(${lhs} ${sql.raw(SQL_ORDERING[op]!)} ${bind(value)})`;
      throw invalidFilter(`${where} is a number: ${op} does not apply`);
    }
    default: {
      if (typeof value !== 'string') throw invalidFilter(`${where} is a string: compare it with a quoted value`);
      // A directory looking up "Team " before creating it must find the "Team" it created before.
      const given = operand.trimmed && op === 'eq' ? value.trim() : value;
      if (operand.caseExact) return stringTest(ctx.dialect, lhs, op, literal(bind, given), where);
      if (operand.lowered) return stringTest(ctx.dialect, lhs, op, literal(bind, given.toLowerCase()), where);
      return stringTest(ctx.dialect, ctx.dialect.lowerCase(lhs), op, loweredInSql(ctx.dialect, bind, given), where);
    }
  }
}

/** The right-hand side of a string comparison, and its length in code points. */
interface StringSide {
  value: unknown;
  length: unknown;
}

/** A value compared as given (or as lowered in JavaScript, like the stored column it meets). */
function literal(bind: Bind, value: string): StringSide {
  return { value: bind(value), length: bind([...value].length) };
}

/**
 * A value compared with a column lowered in SQL is lowered by the same function: JavaScript's
 * toLowerCase and PostgreSQL's lower() differ on some letters (İ, a final Σ), and a value must
 * always find itself stored. Its length is the lowered one's, which may differ from the given one's.
 */
function loweredInSql(dialect: SqlDialect, bind: Bind, value: string): StringSide {
  const lowered = dialect.lowerCase(sql`${bind(value)}`);
  return { value: lowered, length: sql`length(${lowered})` };
}

function stringTest(dialect: SqlDialect, left: RawBuilder<unknown>, op: string, right: StringSide, where: string): Condition {
  switch (op) {
    case 'eq':
      return sql<SqlBool>`(${left} = ${right.value})`;
    case 'co':
      return dialect.contains(left, right.value);
    case 'sw':
      return sql<SqlBool>`(substr(${left}, 1, ${right.length}) = ${right.value})`;
    case 'ew': {
      const { length } = right;
      return sql<SqlBool>`(length(${left}) >= ${length} and substr(${left}, length(${left}) - ${length} + 1) = ${right.value})`;
    }
    case 'gt':
    case 'ge':
    case 'lt':
    case 'le':
      return sql<SqlBool>`(${dialect.binaryOrder(left)} ${sql.raw(SQL_ORDERING[op]!)} ${right.value})`;
  }
  throw invalidFilter(`${where}: unknown operator ${op}`);
}

/** Orders by a scalar operand with binary collation on both databases. */
export function orderExpression(dialect: SqlDialect, operand: Operand & { kind: 'scalar' }): Expression<unknown> {
  const base = operand.caseExact || operand.lowered || operand.type !== 'string' ? operand.sql : dialect.lowerCase(operand.sql);
  return operand.type === 'string' || operand.type === 'reference' ? dialect.binaryOrder(base) : base;
}

/**
 * The direction of a sort by an attribute: resources without it come last when ascending and
 * first when descending (RFC 7644 §3.4.2.3), said explicitly, as SQLite puts nulls first ascending.
 */
export function sortDirection(descending: boolean): OrderByModifiersCallbackExpression {
  return (order) => (descending ? order.desc().nullsFirst() : order.asc().nullsLast());
}
