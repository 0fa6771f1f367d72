/**
 * Row types of the users table (DDL in migrations/0001_platform.ts). Users own it: OAuth and SCIM
 * read a user through users/store.ts (`findUser`, `isUserActive`) and name its row `UserRow`.
 */
export interface UserTables {
  users: {
    id: string;
    account_id: string;
    user_name: string;
    user_name_lower: string;
    external_id: string | null;
    given_name: string | null;
    family_name: string | null;
    display_name: string | null;
    /** 1 active, 0 deactivated */
    active: number;
    /** argon2id PHC string, or null when the user cannot sign in with a password */
    password_hash: string | null;
    /** JSON text */
    attributes: string;
    version: number;
    created_at: number;
    updated_at: number;
  };
}


export type UserRow = UserTables['users'];
