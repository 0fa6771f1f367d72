/**
 * The SCIM schemas Gatehouse implements (RFC 7643 §4.1 User, §4.2 Group, §4.3 Enterprise
 * User), written once and used for everything: input coercion, PATCH paths, filters,
 * `attributes` projection and the /Schemas discovery document. Attribute names are
 * case-insensitive (RFC 7643 §2.1); `caseExact` decides how filters compare strings.
 */
export const CORE_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const ENTERPRISE_USER = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const CORE_GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const SEARCH_REQUEST = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
export const BULK_REQUEST = 'urn:ietf:params:scim:api:messages:2.0:BulkRequest';
export const BULK_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:BulkResponse';

export type AttrType = 'string' | 'boolean' | 'decimal' | 'integer' | 'dateTime' | 'reference' | 'complex';

export interface AttrDef {
  name: string;
  type: AttrType;
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  returned: 'always' | 'never' | 'default' | 'request';
  uniqueness: 'none' | 'server' | 'global';
  canonicalValues?: string[];
  referenceTypes?: string[];
  subAttributes?: AttrDef[];
}

type Options = Partial<Omit<AttrDef, 'name' | 'type' | 'subAttributes'>>;

function attr(name: string, type: AttrType, description: string, options: Options = {}, subAttributes?: AttrDef[]): AttrDef {
  return {
    name,
    type,
    multiValued: false,
    description,
    required: false,
    caseExact: false,
    mutability: 'readWrite',
    returned: 'default',
    uniqueness: 'none',
    ...options,
    ...(subAttributes ? { subAttributes } : {}),
  };
}

const str = (name: string, description: string, options: Options = {}) => attr(name, 'string', description, options);

/** The value/display/type/primary shape shared by emails, phoneNumbers, ims, photos… */
function multi(name: string, description: string, valueType: AttrType, types: string[], extra: AttrDef[] = []): AttrDef {
  return attr(name, 'complex', description, { multiValued: true }, [
    attr('value', valueType, `The ${name} value`, valueType === 'reference' ? { referenceTypes: ['external'], caseExact: true } : {}),
    str('display', 'A human-readable name, primarily used for display purposes'),
    str('type', 'A label indicating the function', types.length ? { canonicalValues: types } : {}),
    attr('primary', 'boolean', 'Indicates the preferred value; at most one element is primary'),
    ...extra,
  ]);
}

const id = str('id', 'Unique identifier assigned by the service provider', { caseExact: true, mutability: 'readOnly', returned: 'always', uniqueness: 'server' });
const externalId = str('externalId', "The provisioning client's identifier for the resource", { caseExact: true });

export const USER_ATTRIBUTES: AttrDef[] = [
  str('userName', 'Unique identifier for the user within the account, used to sign in', { required: true, uniqueness: 'server' }),
  attr('name', 'complex', "The components of the user's name", {}, [
    str('formatted', 'The full name, formatted for display'),
    str('familyName', 'The family name'),
    str('givenName', 'The given name'),
    str('middleName', 'The middle name(s)'),
    str('honorificPrefix', 'Honorific prefix, e.g. Ms.'),
    str('honorificSuffix', 'Honorific suffix, e.g. III'),
  ]),
  str('displayName', 'The name of the user, suitable for display'),
  str('nickName', 'The casual way to address the user'),
  attr('profileUrl', 'reference', "A URL of the user's online profile", { referenceTypes: ['external'] }),
  str('title', "The user's title, e.g. Vice President"),
  str('userType', 'The relationship between the organisation and the user, e.g. Employee'),
  str('preferredLanguage', 'Preferred language (RFC 7231 Accept-Language form)'),
  str('locale', 'Default location for localisation, e.g. en-US'),
  str('timezone', 'Time zone in IANA form, e.g. Europe/Paris'),
  attr('active', 'boolean', 'Whether the user may sign in; false on departure'),
  str('password', 'Sets the sign-in password; never returned', { mutability: 'writeOnly', returned: 'never', caseExact: true }),
  multi('emails', 'Email addresses', 'string', ['work', 'home', 'other']),
  multi('phoneNumbers', 'Phone numbers', 'string', ['work', 'home', 'mobile', 'fax', 'pager', 'other']),
  multi('ims', 'Instant messaging addresses', 'string', []),
  multi('photos', 'URLs of photos of the user', 'reference', ['photo', 'thumbnail']),
  attr('addresses', 'complex', 'Physical mailing addresses', { multiValued: true }, [
    str('formatted', 'The full mailing address'),
    str('streetAddress', 'The street address'),
    str('locality', 'The city or locality'),
    str('region', 'The state or region'),
    str('postalCode', 'The postal code'),
    str('country', 'The country (ISO 3166-1 alpha-2)'),
    str('type', 'A label indicating the function', { canonicalValues: ['work', 'home', 'other'] }),
    attr('primary', 'boolean', 'Indicates the preferred address'),
  ]),
  attr('groups', 'complex', 'Groups the user belongs to (derived from group membership)', { multiValued: true, mutability: 'readOnly' }, [
    str('value', 'The id of the group', { mutability: 'readOnly' }),
    attr('$ref', 'reference', 'The URI of the group', { mutability: 'readOnly', referenceTypes: ['Group'] }),
    str('display', 'The displayName of the group', { mutability: 'readOnly' }),
    str('type', 'direct', { mutability: 'readOnly', canonicalValues: ['direct'] }),
  ]),
  multi('entitlements', 'Entitlements of the user', 'string', []),
  multi('roles', 'Roles of the user as the directory names them', 'string', []),
  multi('x509Certificates', 'DER certificates, base64', 'string', []),
];

export const ENTERPRISE_ATTRIBUTES: AttrDef[] = [
  str('employeeNumber', 'Identifier assigned by the organisation'),
  str('costCenter', 'Cost centre'),
  str('organization', 'Organisation'),
  str('division', 'Division'),
  str('department', 'Department'),
  attr('manager', 'complex', "The user's manager", {}, [
    str('value', 'The id of the manager', { caseExact: true }),
    attr('$ref', 'reference', 'The URI of the manager', { referenceTypes: ['User'] }),
    str('displayName', 'The displayName of the manager', { mutability: 'readOnly' }),
  ]),
];

export const GROUP_ATTRIBUTES: AttrDef[] = [
  str('displayName', 'Name of the group, unique within the account', { required: true, uniqueness: 'server' }),
  attr('members', 'complex', 'Members of the group (users; groups do not nest)', { multiValued: true }, [
    str('value', 'The id of the member', { mutability: 'immutable', caseExact: true }),
    attr('$ref', 'reference', 'The URI of the member', { mutability: 'immutable', referenceTypes: ['User'] }),
    str('display', 'The displayName or userName of the member', { mutability: 'readOnly' }),
    str('type', 'The type of member', { mutability: 'immutable', canonicalValues: ['User'] }),
  ]),
];

/** Common attributes (RFC 7643 §3.1) every resource has. */
export const COMMON_ATTRIBUTES: AttrDef[] = [
  id,
  externalId,
  attr('meta', 'complex', 'Resource metadata', { mutability: 'readOnly' }, [
    str('resourceType', 'The resource type', { mutability: 'readOnly', caseExact: true }),
    attr('created', 'dateTime', 'When the resource was created', { mutability: 'readOnly' }),
    attr('lastModified', 'dateTime', 'When the resource was last changed', { mutability: 'readOnly' }),
    attr('location', 'reference', 'The URI of the resource', { mutability: 'readOnly' }),
    str('version', 'The entity tag of the resource', { mutability: 'readOnly', caseExact: true }),
  ]),
];

export interface ResourceSchema {
  /** the core schema URN */
  core: string;
  attributes: AttrDef[];
  extensions: Array<{ urn: string; attributes: AttrDef[] }>;
}

export const USER_SCHEMA: ResourceSchema = { core: CORE_USER, attributes: USER_ATTRIBUTES, extensions: [{ urn: ENTERPRISE_USER, attributes: ENTERPRISE_ATTRIBUTES }] };
export const GROUP_SCHEMA: ResourceSchema = { core: CORE_GROUP, attributes: GROUP_ATTRIBUTES, extensions: [] };

/** An attribute path resolved against a resource schema: `emails.value`, `urn:…:User:manager.value`. */
export interface ResolvedPath {
  /** the extension URN, or null for core and common attributes */
  urn: string | null;
  def: AttrDef;
  sub: AttrDef | null;
}

export function findAttr(list: AttrDef[], name: string): AttrDef | undefined {
  const lower = name.toLowerCase();
  return list.find((a) => a.name.toLowerCase() === lower);
}

/**
 * Resolves `[urn:…:]attr[.sub]` case-insensitively. Returns undefined for unknown attributes.
 * A URN prefix naming the core schema is the same as no prefix (RFC 7644 §3.10).
 */
export function resolvePath(schema: ResourceSchema, path: string): ResolvedPath | undefined {
  let urn: string | null = null;
  let rest = path;
  const lower = path.toLowerCase();
  for (const candidate of [schema.core, ...schema.extensions.map((e) => e.urn)]) {
    if (lower.startsWith(candidate.toLowerCase() + ':')) {
      urn = candidate === schema.core ? null : candidate;
      rest = path.slice(candidate.length + 1);
      break;
    }
  }
  const [name, subName, ...extra] = rest.split('.');
  if (!name || extra.length > 0) return undefined;
  const list = urn ? (schema.extensions.find((e) => e.urn === urn)?.attributes ?? []) : [...COMMON_ATTRIBUTES, ...schema.attributes];
  const def = findAttr(list, name);
  if (!def) return undefined;
  if (subName === undefined) return { urn, def, sub: null };
  const sub = def.subAttributes ? findAttr(def.subAttributes, subName) : undefined;
  return sub ? { urn, def, sub } : undefined;
}

/** The extension whose URN equals `key` (case-insensitive), if any. */
/**
 * Whether `path` is qualified by the URN of a schema this resource does not have (an identity
 * provider's own extension, `urn:ietf:params:scim:schemas:extension:CustomExtensionName:2.0:User:…`):
 * what such a path names is ignored, as attributes of no known schema are in a created or replaced
 * resource.
 */
export function namesUnknownSchema(schema: ResourceSchema, path: string): boolean {
  const lower = path.toLowerCase();
  if (!lower.startsWith('urn:')) return false;
  return ![schema.core, ...schema.extensions.map((e) => e.urn)].some((urn) => {
    const known = urn.toLowerCase();
    return lower === known || lower.startsWith(`${known}:`);
  });
}

export function extensionOf(schema: ResourceSchema, key: string): { urn: string; attributes: AttrDef[] } | undefined {
  const lower = key.toLowerCase();
  return schema.extensions.find((e) => e.urn.toLowerCase() === lower);
}
