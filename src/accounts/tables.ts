/** Row types of the accounts table (DDL in migrations/0001_platform.ts and 0002_account_lifecycle.ts). */
export interface AccountTables {
  accounts: {
    id: string;
    name: string;
    created_at: number;
    /** `#rrggbb`, or null for the default look (branding.ts). */
    brand_color: string | null;
    /** A `data:image/…;base64,` URI (branding.ts), or null. */
    logo: string | null;
    updated_at: number | null;
    /** Set when the account was closed; the row stays as a tombstone. */
    deleted_at: number | null;
  };
}

export type AccountRow = AccountTables['accounts'];
