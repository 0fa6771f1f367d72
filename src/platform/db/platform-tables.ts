/** Service-wide settings shared by every node, e.g. the admin token's digest. */
export interface PlatformTables {
  settings: {
    name: string;
    value: string;
    updated_at: number;
  };
}
