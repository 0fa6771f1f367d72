/* Generated from openapi/ by npm run openapi (openapi-typescript); do not edit. */

export interface paths {
    "/admin/v1/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List accounts, newest first */
        get: operations["listAccounts"];
        put?: never;
        /** Create an account (a tenant) */
        post: operations["createAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an account */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}/clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the clients of an account, newest first */
        get: operations["listClients"];
        put?: never;
        /** Register an OAuth client (RFC 7591 metadata); a secret is shown once */
        post: operations["createClient"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}/clients/{clientId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a client */
        get: operations["getClient"];
        put?: never;
        post?: never;
        /** Delete a client and revoke every token it was issued */
        delete: operations["deleteClient"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}/clients/{clientId}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate the client secret; the new one is shown once, the old one stops working */
        post: operations["rotateClientSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List an account's roles */
        get: operations["listRoles"];
        put?: never;
        /** Create a role: the scopes its holders may consent to, and the groups (by displayName or externalId) that confer it */
        post: operations["createRole"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}/roles/{itemId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a role */
        get: operations["getRole"];
        /** Replace a role */
        put: operations["replaceRole"];
        post?: never;
        /** Delete a role */
        delete: operations["deleteRole"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}/scim-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List an account's SCIM tokens (never the tokens themselves) */
        get: operations["listScimTokens"];
        put?: never;
        /** Create a SCIM bearer token for an account (the token is shown only in this response) */
        post: operations["createScimToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}/scim-tokens/{itemId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a SCIM token */
        delete: operations["revokeScimToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a user who signs in with a password (argon2id) */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}/users/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a user */
        get: operations["getUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: the database answers and the node is not stopping */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Account: {
            /** Format: date-time */
            created_at: string;
            /** @example acct_4fJ1tX9v0QmB7dP2sK8r */
            id: string;
            name: string;
            /** @constant */
            object: "account";
        };
        Client: {
            account_id: string;
            client_id: string;
            client_id_issued_at?: number;
            client_name: string;
            /** @description Shown only when generated */
            client_secret?: string;
            client_secret_expires_at?: number;
            /** Format: date-time */
            created_at?: string;
            grant_types: string[];
            jwks?: {
                [key: string]: unknown;
            };
            /** @constant */
            object: "client";
            redirect_uris: string[];
            response_types: string[];
            scope: string;
            token_endpoint_auth_method: string;
        };
        ClientMetadata: {
            client_name?: string;
            grant_types?: ("authorization_code" | "refresh_token" | "client_credentials")[];
            jwks?: {
                keys: Record<string, never>[];
            };
            redirect_uris?: string[];
            response_types?: string[];
            scope?: string;
            /** @enum {string} */
            token_endpoint_auth_method?: "client_secret_basic" | "client_secret_post" | "private_key_jwt" | "none";
        };
        /** @description RFC 9457 problem details with a stable machine-readable code */
        Problem: {
            code: string;
            detail?: string;
            /** @description On validation_failed (and limit_out_of_range from the schema): every invalid member at once */
            errors?: {
                /**
                 * @description What is wrong, in words
                 * @example amount must be at least 1
                 */
                detail: string;
                /** @enum {string} */
                in: "body" | "query" | "path" | "header";
                /**
                 * @description JSON Pointer (RFC 6901, as a URI fragment) into the part named by in
                 * @example #/amount
                 */
                pointer: string;
            }[];
            instance?: string;
            status: number;
            title: string;
            type: string;
        } & {
            [key: string]: unknown;
        };
        Role: {
            /** Format: date-time */
            created_at: string;
            groups: {
                displayName?: string;
                externalId?: string;
            }[];
            id: string;
            name: string;
            /** @constant */
            object: "role";
            scopes: string[];
            /** Format: date-time */
            updated_at: string;
        };
        RoleInput: {
            groups: {
                displayName?: string;
                externalId?: string;
            }[];
            name: string;
            scopes: string[];
        };
        ScimToken: {
            /** Format: date-time */
            created_at: string;
            description: string;
            id: string;
            /** @constant */
            object: "scim_token";
            /** Format: date-time */
            revoked_at: string | null;
        };
        User: {
            account_id: string;
            active: boolean;
            /** Format: date-time */
            created_at: string;
            id: string;
            name?: {
                familyName?: string;
                givenName?: string;
            };
            /** @constant */
            object: "user";
            userName: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listAccounts: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "acct_4fJ1tX9v0QmB7dP2sK8r",
                     *           "object": "account",
                     *           "name": "string",
                     *           "created_at": "2026-03-14T09:26:53.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Account"][];
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "string"
                 *     }
                 */
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "acct_4fJ1tX9v0QmB7dP2sK8r",
                     *       "object": "account",
                     *       "name": "string",
                     *       "created_at": "2026-03-14T09:26:53.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Account"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "acct_4fJ1tX9v0QmB7dP2sK8r",
                     *       "object": "account",
                     *       "name": "string",
                     *       "created_at": "2026-03-14T09:26:53.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Account"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found (also for objects of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listClients: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "object": "client",
                     *           "client_id": "string",
                     *           "account_id": "string",
                     *           "client_name": "string",
                     *           "redirect_uris": [
                     *             "string"
                     *           ],
                     *           "grant_types": [
                     *             "string"
                     *           ],
                     *           "response_types": [
                     *             "string"
                     *           ],
                     *           "token_endpoint_auth_method": "string",
                     *           "scope": "string",
                     *           "client_secret": "string",
                     *           "client_secret_expires_at": 1,
                     *           "client_id_issued_at": 1,
                     *           "jwks": {},
                     *           "created_at": "2026-03-14T09:26:53.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Client"][];
                    };
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found (also for objects of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createClient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "client_name": "string",
                 *       "redirect_uris": [
                 *         "string"
                 *       ],
                 *       "grant_types": [
                 *         "authorization_code"
                 *       ],
                 *       "response_types": [
                 *         "string"
                 *       ],
                 *       "token_endpoint_auth_method": "client_secret_basic",
                 *       "scope": "string",
                 *       "jwks": {
                 *         "keys": [
                 *           {}
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ClientMetadata"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "client",
                     *       "client_id": "string",
                     *       "account_id": "string",
                     *       "client_name": "string",
                     *       "redirect_uris": [
                     *         "string"
                     *       ],
                     *       "grant_types": [
                     *         "string"
                     *       ],
                     *       "response_types": [
                     *         "string"
                     *       ],
                     *       "token_endpoint_auth_method": "string",
                     *       "scope": "string",
                     *       "client_secret": "string",
                     *       "client_secret_expires_at": 1,
                     *       "client_id_issued_at": 1,
                     *       "jwks": {},
                     *       "created_at": "2026-03-14T09:26:53.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Client"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found (also for objects of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getClient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clientId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "client",
                     *       "client_id": "string",
                     *       "account_id": "string",
                     *       "client_name": "string",
                     *       "redirect_uris": [
                     *         "string"
                     *       ],
                     *       "grant_types": [
                     *         "string"
                     *       ],
                     *       "response_types": [
                     *         "string"
                     *       ],
                     *       "token_endpoint_auth_method": "string",
                     *       "scope": "string",
                     *       "client_secret": "string",
                     *       "client_secret_expires_at": 1,
                     *       "client_id_issued_at": 1,
                     *       "jwks": {},
                     *       "created_at": "2026-03-14T09:26:53.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Client"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found (also for objects of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteClient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clientId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found (also for objects of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    rotateClientSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clientId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "client",
                     *       "client_id": "string",
                     *       "account_id": "string",
                     *       "client_name": "string",
                     *       "redirect_uris": [
                     *         "string"
                     *       ],
                     *       "grant_types": [
                     *         "string"
                     *       ],
                     *       "response_types": [
                     *         "string"
                     *       ],
                     *       "token_endpoint_auth_method": "string",
                     *       "scope": "string",
                     *       "client_secret": "string",
                     *       "client_secret_expires_at": 1,
                     *       "client_id_issued_at": 1,
                     *       "jwks": {},
                     *       "created_at": "2026-03-14T09:26:53.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Client"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found (also for objects of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listRoles: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "string",
                     *           "object": "role",
                     *           "name": "string",
                     *           "scopes": [
                     *             "string"
                     *           ],
                     *           "groups": [
                     *             {
                     *               "displayName": "string",
                     *               "externalId": "string"
                     *             }
                     *           ],
                     *           "created_at": "2026-03-14T09:26:53.000Z",
                     *           "updated_at": "2026-03-14T09:26:53.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Role"][];
                    };
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found (also for objects of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "string",
                 *       "scopes": [
                 *         "string"
                 *       ],
                 *       "groups": [
                 *         {
                 *           "displayName": "string"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["RoleInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "string",
                     *       "object": "role",
                     *       "name": "string",
                     *       "scopes": [
                     *         "string"
                     *       ],
                     *       "groups": [
                     *         {
                     *           "displayName": "string",
                     *           "externalId": "string"
                     *         }
                     *       ],
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "updated_at": "2026-03-14T09:26:53.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Role"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found (also for objects of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                itemId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "string",
                     *       "object": "role",
                     *       "name": "string",
                     *       "scopes": [
                     *         "string"
                     *       ],
                     *       "groups": [
                     *         {
                     *           "displayName": "string",
                     *           "externalId": "string"
                     *         }
                     *       ],
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "updated_at": "2026-03-14T09:26:53.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Role"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found (also for objects of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    replaceRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                itemId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "string",
                 *       "scopes": [
                 *         "string"
                 *       ],
                 *       "groups": [
                 *         {
                 *           "displayName": "string"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["RoleInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "string",
                     *       "object": "role",
                     *       "name": "string",
                     *       "scopes": [
                     *         "string"
                     *       ],
                     *       "groups": [
                     *         {
                     *           "displayName": "string",
                     *           "externalId": "string"
                     *         }
                     *       ],
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "updated_at": "2026-03-14T09:26:53.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Role"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found (also for objects of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                itemId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found (also for objects of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listScimTokens: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "string",
                     *           "object": "scim_token",
                     *           "description": "string",
                     *           "created_at": "2026-03-14T09:26:53.000Z",
                     *           "revoked_at": "2026-03-14T09:26:53.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["ScimToken"][];
                    };
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found (also for objects of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createScimToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "description": "string"
                 *     }
                 */
                "application/json": {
                    description?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "string",
                     *       "object": "scim_token",
                     *       "description": "string",
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "revoked_at": "2026-03-14T09:26:53.000Z",
                     *       "token": "string"
                     *     }
                     */
                    "application/json": {
                        /** Format: date-time */
                        created_at: string;
                        description: string;
                        id: string;
                        /** @enum {string} */
                        object: "scim_token";
                        /** Format: date-time */
                        revoked_at: string | null;
                        token: string;
                    };
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found (also for objects of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    revokeScimToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                itemId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found (also for objects of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "userName": "string",
                 *       "password": "string",
                 *       "name": {
                 *         "givenName": "string",
                 *         "familyName": "string"
                 *       }
                 *     }
                 */
                "application/json": {
                    name?: {
                        familyName?: string;
                        givenName?: string;
                    };
                    /** @description 8 to 1024 characters (the password policy) */
                    password: string;
                    userName: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "user",
                     *       "id": "string",
                     *       "account_id": "string",
                     *       "userName": "string",
                     *       "active": true,
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "name": {
                     *         "givenName": "string",
                     *         "familyName": "string"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found (also for objects of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported content type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "user",
                     *       "id": "string",
                     *       "account_id": "string",
                     *       "userName": "string",
                     *       "active": true,
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "name": {
                     *         "givenName": "string",
                     *         "familyName": "string"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Missing or invalid credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found (also for objects of another account) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 1,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string",
                     *       "errors": [
                     *         {
                     *           "pointer": "#/amount",
                     *           "in": "body",
                     *           "detail": "amount must be at least 1"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "string"
                     *     }
                     */
                    "application/json": {
                        status?: string;
                    };
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "string"
                     *     }
                     */
                    "application/json": {
                        status?: string;
                    };
                };
            };
            /** @description Answer */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "string"
                     *     }
                     */
                    "application/json": {
                        status?: string;
                    };
                };
            };
        };
    };
}
