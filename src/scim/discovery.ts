/**
 * Discovery (RFC 7644 §4, RFC 7643 §5-7): what the service supports, exactly. PATCH, bulk,
 * filter, sort, ETags and password change are supported; groups do not nest, so a group's
 * `members.type` has the one canonical value `User`.
 */
import { COMMON_ATTRIBUTES, CORE_GROUP, CORE_USER, ENTERPRISE_ATTRIBUTES, ENTERPRISE_USER, GROUP_ATTRIBUTES, LIST_RESPONSE, USER_ATTRIBUTES, type AttrDef } from './schema-catalog.ts';

export const MAX_RESULTS = 1000;
export const MAX_BULK_OPERATIONS = 1000;

export function serviceProviderConfig(baseUrl: string, maxPayloadSize: number) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    documentationUri: `${baseUrl.replace(/\/scim\/v2$/, '')}/docs`,
    patch: { supported: true },
    bulk: { supported: true, maxOperations: MAX_BULK_OPERATIONS, maxPayloadSize },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: true },
    sort: { supported: true },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description: 'A per-account SCIM token from the admin API, or an OAuth 2.0 access token with the scope scim',
        specUri: 'https://www.rfc-editor.org/rfc/rfc6750',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

export function resourceTypes(baseUrl: string) {
  return [
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'People of the account, who sign in at the login page',
      schema: CORE_USER,
      schemaExtensions: [{ schema: ENTERPRISE_USER, required: false }],
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/User` },
    },
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: 'Groups of users; membership carries role assignment',
      schema: CORE_GROUP,
      schemaExtensions: [],
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/Group` },
    },
  ];
}

function describe(def: AttrDef): Record<string, unknown> {
  const { subAttributes, ...rest } = def;
  return subAttributes ? { ...rest, subAttributes: subAttributes.map(describe) } : rest;
}

export function schemas(baseUrl: string) {
  const make = (id: string, name: string, description: string, attributes: AttrDef[]) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
    id,
    name,
    description,
    attributes: attributes.map(describe),
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${id}` },
  });
  const externalId = COMMON_ATTRIBUTES.filter((a) => a.name === 'externalId');
  return [
    make(CORE_USER, 'User', 'User account', [...externalId, ...USER_ATTRIBUTES]),
    make(ENTERPRISE_USER, 'EnterpriseUser', 'Enterprise user', ENTERPRISE_ATTRIBUTES),
    make(CORE_GROUP, 'Group', 'Group', [...externalId, ...GROUP_ATTRIBUTES]),
  ];
}

export function listOf(resources: unknown[]) {
  return { schemas: [LIST_RESPONSE], totalResults: resources.length, itemsPerPage: resources.length, startIndex: 1, Resources: resources };
}
