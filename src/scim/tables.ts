/** Tables of SCIM provisioning and roles (migration 0400_scim). */
export interface ScimTables {
  scim_tokens: {
    id: string;
    account_id: string;
    token_digest: string;
    description: string;
    created_at: number;
    revoked_at: number | null;
  };
  scim_user_values: {
    account_id: string;
    user_id: string;
    /** lower-cased attribute name, URN-qualified for extensions */
    attr: string;
    /** index of the element in a multi-valued attribute, 0 otherwise */
    item: number;
    /** lower-cased sub-attribute name, '' for simple attributes */
    sub: string;
    value: string;
    value_lower: string;
  };
  scim_groups: {
    id: string;
    account_id: string;
    display_name: string;
    display_name_lower: string;
    external_id: string | null;
    version: number;
    created_at: number;
    updated_at: number;
  };
  scim_group_members: {
    group_id: string;
    user_id: string;
    account_id: string;
    created_at: number;
  };
  roles: {
    id: string;
    account_id: string;
    name: string;
    /** space-delimited */
    scopes: string;
    created_at: number;
    updated_at: number;
  };
  role_groups: {
    role_id: string;
    account_id: string;
    /** 'displayName' (value lower-cased) or 'externalId' (value exact) */
    match: string;
    value: string;
  };
}
