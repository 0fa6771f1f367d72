/**
 * How a SCIM filter or sortBy (RFC 7644 §3.4.2.2, §3.4.2.3) reaches a user's stored form: the
 * attributes with a column of their own (`users`), the rest through their search rows
 * (`scim_user_values`, one per value, sub-attribute and element), `groups` through memberships.
 * filter.ts translates the filter's tree; this says what each attribute path is in SQL.
 */
import { sql, type SqlBool } from 'kysely';
import type { SqlDialect } from '../platform/db/dialect.ts';
import { invalidFilter, invalidValue } from './errors.ts';
import type { Bind, FilterTarget, Operand } from './filter.ts';
import { USER_SCHEMA, resolvePath, type AttrDef, type ResolvedPath } from './schema-catalog.ts';
import { valuesKey } from './user-document.ts';

const scalar = (ref: string, type: AttrDef['type'], caseExact: boolean, lowered = false, trimmed = false): Operand => ({
  kind: 'scalar',
  sql: sql.ref(ref),
  type,
  caseExact,
  lowered,
  trimmed,
});

function columnOperand(path: ResolvedPath): Operand | undefined {
  if (path.urn) return undefined;
  const name = path.sub ? `${path.def.name}.${path.sub.name}` : path.def.name;
  switch (name) {
    case 'id': return scalar('users.id', 'string', true);
    case 'externalId': return scalar('users.external_id', 'string', true);
    case 'userName': return scalar('users.user_name_lower', 'string', false, true, true);
    case 'name.givenName': return scalar('users.given_name', 'string', false);
    case 'name.familyName': return scalar('users.family_name', 'string', false);
    case 'displayName': return scalar('users.display_name', 'string', false);
    case 'active': return scalar('users.active', 'boolean', true);
    case 'meta.created': return scalar('users.created_at', 'dateTime', true);
    case 'meta.lastModified': return scalar('users.updated_at', 'dateTime', true);
    case 'meta.resourceType': return { kind: 'constant', value: 'User' };
  }
  if (path.def.name === 'meta') throw invalidFilter(`${name} cannot be filtered`);
  return undefined;
}

function valueOperand(alias: string, def: AttrDef): Operand & { kind: 'scalar' } {
  return def.caseExact && def.type !== 'boolean'
    ? { kind: 'scalar', sql: sql.ref(`${alias}.value`), type: def.type, caseExact: true, lowered: false }
    : { kind: 'scalar', sql: sql.ref(`${alias}.value_lower`), type: def.type, caseExact: false, lowered: true };
}

export function userFilterTarget(accountId: string, dialect: SqlDialect, bind?: Bind): FilterTarget {
  return {
    schema: USER_SCHEMA,
    dialect,
    bind,
    operand(path) {
      const column = columnOperand(path);
      if (column) return column;
      if (path.def.name === 'groups' && !path.urn) return groupsOperand(accountId, path.sub!);
      const leaf = path.sub ?? path.def;
      const key = valuesKey(path.urn, path.def);
      const sub = path.sub ? path.sub.name.toLowerCase() : '';
      return {
        kind: 'set',
        build: (test) =>
          sql<SqlBool>`users.id in (select v.user_id from scim_user_values v where v.account_id = ${accountId} and v.attr = ${key} and v.sub = ${sub} and ${test(valueOperand('v', leaf))})`,
      };
    },
    elements(path, inner) {
      if (path.def.name === 'groups' && !path.urn) {
        const condition = inner((sub) => groupSubOperand(sub));
        return sql<SqlBool>`users.id in (select m.user_id from scim_group_members m join scim_groups g on g.id = m.group_id where m.account_id = ${accountId} and ${condition})`;
      }
      const key = valuesKey(path.urn, path.def);
      const condition = inner((sub) => ({
        kind: 'set',
        build: (test) =>
          sql<SqlBool>`exists (select 1 from scim_user_values x where x.user_id = e.user_id and x.attr = e.attr and x.item = e.item and x.sub = ${sub.name.toLowerCase()} and ${test(valueOperand('x', sub))})`,
      }));
      return sql<SqlBool>`users.id in (select e.user_id from scim_user_values e where e.account_id = ${accountId} and e.attr = ${key} and ${condition})`;
    },
  };
}

function groupSubOperand(sub: AttrDef): Operand {
  switch (sub.name) {
    case 'value': return scalar('m.group_id', 'string', true);
    case 'display': return scalar('g.display_name_lower', 'string', false, true);
    case 'type': return { kind: 'constant', value: 'direct' };
  }
  throw invalidFilter(`groups.${sub.name} cannot be filtered`);
}

function groupsOperand(accountId: string, sub: AttrDef): Operand {
  const operand = groupSubOperand(sub);
  if (operand.kind !== 'scalar') return operand;
  return {
    kind: 'set',
    build: (test) =>
      sql<SqlBool>`users.id in (select m.user_id from scim_group_members m join scim_groups g on g.id = m.group_id where m.account_id = ${accountId} and ${test(operand)})`,
  };
}

/** The expression a list is sorted by (RFC 7644 §3.4.2.3); multi-valued attributes sort by their least value. */
export function sortOperand(sortBy: string): Operand & { kind: 'scalar' } {
  const path = resolvePath(USER_SCHEMA, sortBy);
  if (!path || (path.sub ?? path.def).returned === 'never' || (path.def.type === 'complex' && !path.sub && !path.def.multiValued)) {
    throw invalidValue(`sortBy: unknown attribute ${sortBy}`);
  }
  const resolved = path.sub || path.def.type !== 'complex' ? path : { ...path, sub: path.def.subAttributes!.find((s) => s.name === 'value') ?? null };
  if (!resolved.sub && resolved.def.type === 'complex') throw invalidValue(`sortBy: ${sortBy} is complex`);
  const column = columnOperand(resolved);
  if (column?.kind === 'scalar') return column;
  if (resolved.def.name === 'groups') throw invalidValue('sortBy: groups cannot be sorted on');
  const leaf = resolved.sub ?? resolved.def;
  const key = valuesKey(resolved.urn, resolved.def);
  const sub = resolved.sub ? resolved.sub.name.toLowerCase() : '';
  const column_ = leaf.caseExact ? 'value' : 'value_lower';
  return {
    kind: 'scalar',
    sql: sql`(select min(s.${sql.raw(column_)}) from scim_user_values s where s.user_id = users.id and s.attr = ${key} and s.sub = ${sub})`,
    type: leaf.type,
    caseExact: true,
    lowered: true,
  };
}
