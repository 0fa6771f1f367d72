/**
 * A SCIM user as stored: the attributes with columns of their own in `users` (userName,
 * externalId, name.givenName/familyName, displayName, active) and the rest of the canonical
 * document as JSON in `users.attributes`. `searchValues` flattens the JSON part into the rows
 * of `scim_user_values` that filters query.
 */
import type { UserRow } from '../users/tables.ts';
import { isObject, type Json, type JsonObject } from './coerce.ts';
import { ENTERPRISE_USER, USER_SCHEMA, findAttr, type AttrDef } from './schema-catalog.ts';
import type { ScimTables } from './tables.ts';

/** Column-backed attributes of a user document. */
export type UserColumns = Pick<UserRow, 'user_name' | 'user_name_lower' | 'external_id' | 'given_name' | 'family_name' | 'display_name' | 'active'>;

/** Splits a canonical user document into its columns and its JSON remainder. */
export function splitUserDocument(doc: JsonObject): { columns: UserColumns; attributes: JsonObject } {
  const rest: JsonObject = { ...doc };
  const userName = doc.userName as string;
  const name = isObject(doc.name) ? { ...doc.name } : undefined;
  delete rest.userName;
  delete rest.externalId;
  delete rest.displayName;
  delete rest.active;
  delete rest.password;
  if (name) {
    delete name.givenName;
    delete name.familyName;
    if (Object.keys(name).length > 0) rest.name = name;
    else delete rest.name;
  }
  return {
    columns: {
      user_name: userName,
      user_name_lower: userName.toLowerCase(),
      external_id: typeof doc.externalId === 'string' ? doc.externalId : null,
      given_name: isObject(doc.name) && typeof doc.name.givenName === 'string' ? doc.name.givenName : null,
      family_name: isObject(doc.name) && typeof doc.name.familyName === 'string' ? doc.name.familyName : null,
      display_name: typeof doc.displayName === 'string' ? doc.displayName : null,
      active: doc.active === false ? 0 : 1,
    },
    attributes: rest,
  };
}

/** The canonical document of a stored user (without id, meta, groups). */
export function userDocument(row: UserRow): JsonObject {
  let attributes: JsonObject = {};
  try {
    const parsed: unknown = JSON.parse(row.attributes);
    if (isObject(parsed)) attributes = parsed;
  } catch {
    // A user created outside SCIM may have no attributes yet.
  }
  const doc: JsonObject = { userName: row.user_name };
  if (row.external_id !== null) doc.externalId = row.external_id;
  const name: JsonObject = isObject(attributes.name) ? { ...attributes.name } : {};
  if (row.given_name !== null) name.givenName = row.given_name;
  if (row.family_name !== null) name.familyName = row.family_name;
  if (Object.keys(name).length > 0) doc.name = orderKeys(name, findAttr(USER_SCHEMA.attributes, 'name')!.subAttributes!);
  if (row.display_name !== null) doc.displayName = row.display_name;
  for (const [key, value] of Object.entries(attributes)) if (key !== 'name') doc[key] = value;
  doc.active = row.active === 1;
  return doc;
}

function orderKeys(value: JsonObject, defs: AttrDef[]): JsonObject {
  const out: JsonObject = {};
  for (const def of defs) if (def.name in value) out[def.name] = value[def.name]!;
  return out;
}

type ValueRow = ScimTables['scim_user_values'];

/** The searchable rows of the JSON part of a user document. */
export function searchValues(accountId: string, userId: string, attributes: JsonObject): ValueRow[] {
  const rows: ValueRow[] = [];
  const push = (attr: string, item: number, sub: string, value: Json | undefined) => {
    if (value === null || value === undefined || typeof value === 'object') return;
    const text = String(value);
    if (text === '') return;
    rows.push({ account_id: accountId, user_id: userId, attr, item, sub, value: text, value_lower: text.toLowerCase() });
  };
  const addAttribute = (key: string, def: AttrDef, value: Json) => {
    const items = def.multiValued && Array.isArray(value) ? value : [value];
    items.forEach((element, item) => {
      if (def.type === 'complex' && isObject(element)) {
        for (const [sub, subValue] of Object.entries(element)) push(key, item, sub.toLowerCase(), subValue);
      } else {
        push(key, item, '', element);
      }
    });
  };
  for (const [key, value] of Object.entries(attributes)) {
    if (key === ENTERPRISE_USER && isObject(value)) {
      for (const [extKey, extValue] of Object.entries(value)) {
        const def = findAttr(USER_SCHEMA.extensions[0]!.attributes, extKey);
        if (def) addAttribute(`${ENTERPRISE_USER.toLowerCase()}:${def.name.toLowerCase()}`, def, extValue);
      }
      continue;
    }
    const def = findAttr(USER_SCHEMA.attributes, key);
    if (def) addAttribute(def.name.toLowerCase(), def, value);
  }
  return rows;
}

/** Key of an attribute in `scim_user_values.attr`. */
export function valuesKey(urn: string | null, def: AttrDef): string {
  return urn ? `${urn.toLowerCase()}:${def.name.toLowerCase()}` : def.name.toLowerCase();
}
