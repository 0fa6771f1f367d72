/** Row types of the accounts table (DDL in migrations/0001_platform.ts). */
export interface AccountTables {
  accounts: {
    id: string;
    name: string;
    created_at: number;
  };
}


export type AccountRow = AccountTables['accounts'];
