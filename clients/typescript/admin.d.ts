/* Generated from openapi/ by npm run openapi (openapi-typescript); do not edit. */

export interface paths {
    "/admin/v1/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the open accounts (or with state=closed the closed ones), newest first, page by page (cursor) */
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
        /** Get an account, open or closed (a closed account has closed_at set; every other route of it answers 404 account_not_found) */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        /** Close an account: refused (409) while it holds an available balance or pending payouts; otherwise its clients, tokens, sessions, people and SCIM tokens go, its webhook endpoints are disabled (disabled_reason account_closed), and its ledger, payouts, invoices, events and audit trail are kept */
        delete: operations["deleteAccount"];
        options?: never;
        head?: never;
        /** Change an account's name or the branding of its sign-in pages (the fields given; null removes the colour or logo) */
        patch: operations["updateAccount"];
        trace?: never;
    };
    "/admin/v1/accounts/{id}/clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the clients of an account, newest first, page by page (cursor) */
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
        /** Update a client in place: the fields given replace the registered ones; a new secret is shown once when one is generated */
        patch: operations["updateClient"];
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
    "/admin/v1/accounts/{id}/clients/{clientId}/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke every token the client holds: access and refresh tokens, grants; the client and its secret stay */
        delete: operations["revokeClientTokens"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}/logout-deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the back-channel logout deliveries of an account, newest first, page by page (cursor); state=parked lists those that gave up */
        get: operations["listLogoutDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}/logout-deliveries/{deliveryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Retry a parked back-channel logout delivery: a new retry cycle, due now, with a freshly signed logout token */
        post: operations["retryLogoutDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}/logout-deliveries/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Retry every parked back-channel logout delivery of the account queued at or after `since` (of one client, if named) */
        post: operations["retryParkedLogoutDeliveries"];
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
        /** List an account's roles by name, page by page (cursor) */
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
        /** List an account's SCIM tokens (never the tokens themselves), newest first, page by page (cursor) */
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
        /** Get a SCIM token as the list shows it (never the token itself); a revoked one names when it was revoked */
        get: operations["getScimToken"];
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
        /** List the people of an account, oldest first, page by page (cursor); userName finds one person, active keeps those active or not */
        get: operations["listUsers"];
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
        /** Delete a person (as SCIM DELETE): access ends, memberships go; deactivation is the usual departure */
        delete: operations["deleteUser"];
        options?: never;
        head?: never;
        /**
         * Change a person's userName or name (the members given; null removes a name part)
         * @description Checked and recorded as a directory's PATCH is: the userName stays unique in the account, the version moves (SCIM ETags change) and the audit trail records user.updated with each field before and after. A person a directory manages may be written back by its next synchronisation: the directory is their source.
         */
        patch: operations["updateUser"];
        trace?: never;
    };
    "/admin/v1/accounts/{id}/users/{userId}/deactivate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deactivate a person: every token, grant and session of theirs ends at once; back-channel logouts go out */
        post: operations["deactivateUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}/users/{userId}/grants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A person's live grants (one per sign-in to a client, with the scope consented), oldest first, page by page (cursor) */
        get: operations["listUserGrants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}/users/{userId}/grants/{grantId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a grant with every refresh and access token issued under it */
        delete: operations["revokeUserGrant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}/users/{userId}/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set a new password (the password policy applies); every session and token of the person ends */
        post: operations["resetUserPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}/users/{userId}/reactivate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reactivate a person: they may sign in again (nothing that ended comes back) */
        post: operations["reactivateUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}/users/{userId}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A person's live sign-in sessions, oldest first, page by page (cursor) */
        get: operations["listUserSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/accounts/{id}/users/{userId}/sessions/{sessionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End a sign-in session; the clients it signed in to get back-channel logouts */
        delete: operations["endUserSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the audit trail of every account (or of one), a page at a time
         * @description Newest first by (occurred_at, id). Filters narrow the read; a cursor only continues a read with the same filters. Pass next_cursor as after to read on. Operator actions that belong to no account are under the account "platform".
         */
        get: operations["listAllAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/audit-verification": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Verify the hash chains of the audit trail
         * @description Walks each chain (or one account’s) and names the first record altered, removed or reordered, and checks the signed checkpoints.
         */
        get: operations["verifyAuditTrail"];
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
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Metrics for Prometheus: requests, the database pool, payouts, webhooks, the process */
        get: operations["getMetrics"];
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
            /**
             * @description The sign-in pages' brand colour, #rrggbb (buttons and the top bar; their text is black or white, whichever contrasts more); null for the default
             * @example #0b5fff
             */
            brand_color: string | null;
            /**
             * Format: date-time
             * @description When the account was closed (DELETE); null while it is open
             */
            closed_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** @example acct_4fJ1tX9v0QmB7dP2sK8r */
            id: string;
            /**
             * @description The logo shown on the sign-in pages, as a data: URI (image/png, image/jpeg, image/gif, image/webp; at most 32768 bytes of image), carried by the page itself so the browser fetches nothing from elsewhere; null for none
             * @example data:image/png;base64,iVBORw0KGgo…
             */
            logo: string | null;
            /** @description Shown on the sign-in, consent and sign-out pages */
            name: string;
            /** @constant */
            object: "account";
            /** Format: date-time */
            updated_at: string | null;
        };
        AuditEvent: {
            account: string;
            /** @description From the catalogue in docs/AUDIT.md, e.g. payout.created */
            action: string;
            actor: {
                /** @description The client a person acted through */
                client?: {
                    display?: string | null;
                    id?: string;
                };
                /** @description Read when the trail is read; null once the person is deleted */
                display: string | null;
                id: string;
                /** @enum {string} */
                type: "admin" | "client" | "user" | "scim_token" | "system";
            };
            /** @description Fields that changed: { field: { before, after } }, secrets redacted; null when none or detached */
            changes: unknown;
            /** @description The person this record is about was deleted; their details were removed */
            detached: boolean;
            hash?: string | null;
            id: string;
            idempotency_key?: string | null;
            /** @constant */
            object: "audit_event";
            /** Format: date-time */
            occurred_at: string;
            request_id?: string | null;
            /** @description Place in the account's hash chain; null until sealed */
            seq: number | null;
            source?: {
                address?: string | null;
                user_agent?: string | null;
            };
            target: {
                id: string;
                type: string;
            };
        };
        AuditVerification: {
            chains: {
                account: string;
                checkpoints: {
                    verified: number;
                };
                /** @description Records whose details were removed when the person they name was deleted */
                detached: number;
                first_seq: number;
                /** @description The head record's hash: keep `head_seq:head_hash` elsewhere and pass it as anchor later */
                head_hash: string | null;
                head_seq: number;
                ok: boolean;
                /** @description Records written and not yet sealed (not covered until they are) */
                pending: number;
                /** @description The first thing wrong with the chain; null when it verifies */
                problem: {
                    detail: string;
                    /** @description The record named, when one is there to name */
                    id: string | null;
                    /** @enum {string} */
                    kind: "altered" | "removed" | "reordered" | "checkpoint";
                    seq: number;
                } | null;
                /** @description Sealed records checked */
                records: number;
            }[];
            /** @description Every chain verified */
            ok: boolean;
        };
        Client: {
            account_id: string;
            backchannel_logout_session_required?: boolean;
            backchannel_logout_uri?: string;
            client_id: string;
            client_id_issued_at?: number;
            client_name: string;
            /** @description Shown only when generated */
            client_secret?: string;
            client_secret_expires_at?: number;
            /** Format: date-time */
            created_at?: string;
            grant_types: string[];
            id_token_signed_response_alg?: string;
            jwks?: {
                [key: string]: unknown;
            };
            jwks_uri?: string;
            /** @constant */
            object: "client";
            post_logout_redirect_uris?: string[];
            redirect_uris: string[];
            require_pkce?: boolean;
            response_types: string[];
            scope: string;
            subject_type?: string;
            token_endpoint_auth_method: string;
        };
        ClientMetadata: {
            backchannel_logout_uri?: string;
            client_name?: string;
            grant_types?: ("authorization_code" | "refresh_token" | "client_credentials")[];
            /** @enum {string} */
            id_token_signed_response_alg?: "ES256" | "RS256";
            jwks?: {
                keys: Record<string, never>[];
            };
            jwks_uri?: string;
            post_logout_redirect_uris?: string[];
            redirect_uris?: string[];
            require_pkce?: boolean;
            response_types?: string[];
            scope?: string;
            /** @enum {string} */
            subject_type?: "public" | "pairwise";
            /** @enum {string} */
            token_endpoint_auth_method?: "client_secret_basic" | "client_secret_post" | "private_key_jwt" | "none";
        };
        ClientMetadataPatch: {
            backchannel_logout_uri?: string;
            client_name?: string;
            grant_types?: ("authorization_code" | "refresh_token" | "client_credentials")[];
            /** @enum {string} */
            id_token_signed_response_alg?: "ES256" | "RS256";
            jwks?: {
                keys: Record<string, never>[];
            };
            jwks_uri?: string;
            post_logout_redirect_uris?: string[];
            redirect_uris?: string[];
            require_pkce?: boolean;
            response_types?: string[];
            scope?: string;
            /** @enum {string} */
            subject_type?: "public" | "pairwise";
            /** @enum {string} */
            token_endpoint_auth_method?: "client_secret_basic" | "client_secret_post" | "private_key_jwt" | "none";
        };
        ClientTokenRevocation: {
            client_id: string;
            /** @constant */
            object: "client_token_revocation";
            /** @description The live stored tokens and grants revoked, and the authorization codes not yet redeemed, deleted */
            revoked: {
                access_tokens: number;
                codes: number;
                grants: number;
                refresh_tokens: number;
            };
            /**
             * Format: date-time
             * @description Tokens issued at or before this instant no longer work; the client-credentials tokens among them are counted nowhere, as none is stored
             */
            tokens_not_before: string;
        };
        LogoutDelivery: {
            /** @description The client the logout token is for */
            client_id: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            delivered_at: string | null;
            /** @description Failed attempts in the current cycle */
            failures: number;
            /** @example blo_0Jd8K2mQ4rT7vL1pW8bN5k */
            id: string;
            /** @description What the last failed attempt met, e.g. status 500 */
            last_error: string | null;
            /**
             * Format: date-time
             * @description When a pending delivery is tried next
             */
            next_attempt_at: string | null;
            /** @constant */
            object: "logout_delivery";
            /** @description The session that ended (the token's sid) */
            sid: string;
            /**
             * @description pending (being retried), delivered (a 2xx came back), parked (the retry schedule ran out)
             * @enum {string}
             */
            state: "pending" | "delivered" | "parked";
            /** @description The client's backchannel_logout_uri when the logout was queued */
            target_uri: string;
            /** @description The person who was signed out */
            user_id: string;
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
            scopes: ("invoices:read" | "invoices:write" | "ledger:read" | "payouts:read" | "payouts:write" | "events:read" | "webhooks:manage" | "scim" | "audit:read" | "openid" | "profile" | "email" | "phone")[];
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
        UserGrant: {
            /** @example cli_7Rk2pV9sQ1mZ4wX8bN3c */
            client_id: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
            /** @example grant_9Xc4mQ2rT7vL1pW8bN5k */
            id: string;
            /** @constant */
            object: "grant";
            /**
             * @description The scope consented, space-separated
             * @example openid profile invoices:read
             */
            scope: string;
        };
        UserSession: {
            /** Format: date-time */
            authenticated_at: string;
            /** Format: date-time */
            expires_at: string;
            /** @example sess_3Hd8kP1nV6zQ4tY2mR7j */
            id: string;
            /** @constant */
            object: "session";
        };
    };
    responses: {
        /** @description Invalid request */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "/docs/errors#error-malformed_request",
                 *       "title": "Request could not be parsed",
                 *       "status": 400,
                 *       "code": "malformed_request"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Request headers too large; the connection is closed */
        HeadersTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "/docs/errors#error-headers_too_large",
                 *       "title": "Request headers too large",
                 *       "status": 431,
                 *       "code": "headers_too_large"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Unexpected failure; the answer names the request id, which the log records */
        InternalError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "/docs/errors#error-internal_error",
                 *       "title": "Internal error",
                 *       "status": 500,
                 *       "code": "internal_error"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Body too large (GATEHOUSE_BODY_LIMIT) */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "/docs/errors#error-payload_too_large",
                 *       "title": "Request body too large",
                 *       "status": 413,
                 *       "code": "payload_too_large"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The request did not arrive whole in time (GATEHOUSE_HTTP_REQUEST_TIMEOUT); the connection is closed */
        RequestTimeout: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "/docs/errors#error-request_timeout",
                 *       "title": "Request was not received in time",
                 *       "status": 408,
                 *       "code": "request_timeout"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Temporarily unavailable (the database is out of reach, or a concurrent change conflicted); nothing was changed, retry after Retry-After */
        ServiceUnavailable: {
            headers: {
                /** @description Seconds to wait before trying again */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "/docs/errors#error-service_unavailable",
                 *       "title": "Service temporarily unavailable",
                 *       "status": 503,
                 *       "code": "service_unavailable"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Rate limited; Retry-After says when to try again */
        TooManyRequests: {
            headers: {
                /** @description Seconds to wait before trying again */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "/docs/errors#error-rate_limited",
                 *       "title": "Too many requests",
                 *       "status": 429,
                 *       "code": "rate_limited"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Unsupported content type */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "type": "/docs/errors#error-unsupported_media_type",
                 *       "title": "Unsupported content type",
                 *       "status": 415,
                 *       "code": "unsupported_media_type"
                 *     }
                 */
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
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
                /** @description The next_cursor of the previous page, passed back unmodified; omitted on the first request */
                after?: string;
                /** @description Largest number of rows in the page, 1 to 100 (default 20); out of range → 400 limit_out_of_range */
                limit?: number;
                /** @description Which accounts: open (the default) or closed */
                state?: "open" | "closed";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of accounts */
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
                     *           "brand_color": "#0b5fff",
                     *           "logo": "data:image/png;base64,iVBORw0KGgo…",
                     *           "created_at": "2026-03-14T09:26:53.000Z",
                     *           "updated_at": "2026-03-14T09:26:53.000Z",
                     *           "closed_at": "2026-03-14T09:26:53.000Z"
                     *         }
                     *       ],
                     *       "next_cursor": "string"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Account"][];
                        /** @description Opaque cursor for the next page; null when the read is complete */
                        next_cursor: string | null;
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
                     *       "status": 400,
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
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
                     *       "brand_color": "#0b5fff",
                     *       "logo": "data:image/png;base64,iVBORw0KGgo…",
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "updated_at": "2026-03-14T09:26:53.000Z",
                     *       "closed_at": "2026-03-14T09:26:53.000Z"
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
                     *       "status": 400,
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
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
                     *       "status": 415,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
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
                     *       "brand_color": "#0b5fff",
                     *       "logo": "data:image/png;base64,iVBORw0KGgo…",
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "updated_at": "2026-03-14T09:26:53.000Z",
                     *       "closed_at": "2026-03-14T09:26:53.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Account"];
                };
            };
            400: components["responses"]["BadRequest"];
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteAccount: {
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
            /** @description Closed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
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
                     *       "status": 409,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateAccount: {
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
                 *       "brand_color": "#0b5fff",
                 *       "logo": "data:image/png;base64,iVBORw0KGgo…"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description The sign-in pages' brand colour, #rrggbb (buttons and the top bar; their text is black or white, whichever contrasts more); null for the default
                     * @example #0b5fff
                     */
                    brand_color?: string | null;
                    /**
                     * @description The logo shown on the sign-in pages, as a data: URI (image/png, image/jpeg, image/gif, image/webp; at most 32768 bytes of image), carried by the page itself so the browser fetches nothing from elsewhere; null for none
                     * @example data:image/png;base64,iVBORw0KGgo…
                     */
                    logo?: string | null;
                    name?: string;
                };
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
                     *       "id": "acct_4fJ1tX9v0QmB7dP2sK8r",
                     *       "object": "account",
                     *       "name": "string",
                     *       "brand_color": "#0b5fff",
                     *       "logo": "data:image/png;base64,iVBORw0KGgo…",
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "updated_at": "2026-03-14T09:26:53.000Z",
                     *       "closed_at": "2026-03-14T09:26:53.000Z"
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
                     *       "status": 400,
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
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
                     *       "status": 415,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listClients: {
        parameters: {
            query?: {
                /** @description The next_cursor of the previous page, passed back unmodified; omitted on the first request */
                after?: string;
                /** @description Largest number of rows in the page, 1 to 100 (default 20); out of range → 400 limit_out_of_range */
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of clients */
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
                     *           "jwks_uri": "string",
                     *           "post_logout_redirect_uris": [
                     *             "string"
                     *           ],
                     *           "id_token_signed_response_alg": "string",
                     *           "subject_type": "string",
                     *           "backchannel_logout_uri": "string",
                     *           "backchannel_logout_session_required": true,
                     *           "require_pkce": true,
                     *           "created_at": "2026-03-14T09:26:53.000Z"
                     *         }
                     *       ],
                     *       "next_cursor": "string"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Client"][];
                        /** @description Opaque cursor for the next page; null when the read is complete */
                        next_cursor: string | null;
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
                     *       "status": 400,
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
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
                 *       },
                 *       "jwks_uri": "string",
                 *       "post_logout_redirect_uris": [
                 *         "string"
                 *       ],
                 *       "id_token_signed_response_alg": "ES256",
                 *       "subject_type": "public",
                 *       "backchannel_logout_uri": "string",
                 *       "require_pkce": true
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
                     *       "jwks_uri": "string",
                     *       "post_logout_redirect_uris": [
                     *         "string"
                     *       ],
                     *       "id_token_signed_response_alg": "string",
                     *       "subject_type": "string",
                     *       "backchannel_logout_uri": "string",
                     *       "backchannel_logout_session_required": true,
                     *       "require_pkce": true,
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
                     *       "status": 400,
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
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
                     *       "status": 415,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
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
                     *       "jwks_uri": "string",
                     *       "post_logout_redirect_uris": [
                     *         "string"
                     *       ],
                     *       "id_token_signed_response_alg": "string",
                     *       "subject_type": "string",
                     *       "backchannel_logout_uri": "string",
                     *       "backchannel_logout_session_required": true,
                     *       "require_pkce": true,
                     *       "created_at": "2026-03-14T09:26:53.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Client"];
                };
            };
            400: components["responses"]["BadRequest"];
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
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
            400: components["responses"]["BadRequest"];
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateClient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clientId: string;
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
                 *       },
                 *       "jwks_uri": "string",
                 *       "post_logout_redirect_uris": [
                 *         "string"
                 *       ],
                 *       "id_token_signed_response_alg": "ES256",
                 *       "subject_type": "public",
                 *       "backchannel_logout_uri": "string",
                 *       "require_pkce": true
                 *     }
                 */
                "application/json": components["schemas"]["ClientMetadataPatch"];
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
                     *       "jwks_uri": "string",
                     *       "post_logout_redirect_uris": [
                     *         "string"
                     *       ],
                     *       "id_token_signed_response_alg": "string",
                     *       "subject_type": "string",
                     *       "backchannel_logout_uri": "string",
                     *       "backchannel_logout_session_required": true,
                     *       "require_pkce": true,
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
                     *       "status": 400,
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
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
                     *       "status": 415,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
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
                     *       "jwks_uri": "string",
                     *       "post_logout_redirect_uris": [
                     *         "string"
                     *       ],
                     *       "id_token_signed_response_alg": "string",
                     *       "subject_type": "string",
                     *       "backchannel_logout_uri": "string",
                     *       "backchannel_logout_session_required": true,
                     *       "require_pkce": true,
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
                     *       "status": 400,
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    revokeClientTokens: {
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
                     *       "object": "client_token_revocation",
                     *       "client_id": "string",
                     *       "tokens_not_before": "2026-03-14T09:26:53.000Z",
                     *       "revoked": {
                     *         "access_tokens": 1,
                     *         "refresh_tokens": 1,
                     *         "grants": 1,
                     *         "codes": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ClientTokenRevocation"];
                };
            };
            400: components["responses"]["BadRequest"];
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listLogoutDeliveries: {
        parameters: {
            query?: {
                /** @description The next_cursor of the previous page, passed back unmodified; omitted on the first request */
                after?: string;
                client_id?: string;
                /** @description Largest number of rows in the page, 1 to 100 (default 20); out of range → 400 limit_out_of_range */
                limit?: number;
                state?: "pending" | "delivered" | "parked";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of back-channel logout deliveries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "object": "logout_delivery",
                     *           "id": "blo_0Jd8K2mQ4rT7vL1pW8bN5k",
                     *           "client_id": "string",
                     *           "user_id": "string",
                     *           "sid": "string",
                     *           "target_uri": "string",
                     *           "state": "pending",
                     *           "failures": 1,
                     *           "last_error": "string",
                     *           "created_at": "2026-03-14T09:26:53.000Z",
                     *           "next_attempt_at": "2026-03-14T09:26:53.000Z",
                     *           "delivered_at": "2026-03-14T09:26:53.000Z"
                     *         }
                     *       ],
                     *       "next_cursor": "string"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["LogoutDelivery"][];
                        /** @description Opaque cursor for the next page; null when the read is complete */
                        next_cursor: string | null;
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
                     *       "status": 400,
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retryLogoutDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deliveryId: string;
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
                     *       "object": "logout_delivery",
                     *       "id": "blo_0Jd8K2mQ4rT7vL1pW8bN5k",
                     *       "client_id": "string",
                     *       "user_id": "string",
                     *       "sid": "string",
                     *       "target_uri": "string",
                     *       "state": "pending",
                     *       "failures": 1,
                     *       "last_error": "string",
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "next_attempt_at": "2026-03-14T09:26:53.000Z",
                     *       "delivered_at": "2026-03-14T09:26:53.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["LogoutDelivery"];
                };
            };
            400: components["responses"]["BadRequest"];
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
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
                     *       "status": 409,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    retryParkedLogoutDeliveries: {
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
                 *       "since": "2026-03-14T09:26:53.000Z",
                 *       "client_id": "string"
                 *     }
                 */
                "application/json": {
                    client_id?: string;
                    /** Format: date-time */
                    since: string;
                };
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
                     *       "object": "logout_retry",
                     *       "since": "2026-03-14T09:26:53.000Z",
                     *       "requeued": 1,
                     *       "client_id": "string"
                     *     }
                     */
                    "application/json": {
                        client_id?: string;
                        /** @enum {string} */
                        object: "logout_retry";
                        requeued: number;
                        /** Format: date-time */
                        since: string;
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
                     *       "status": 400,
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
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
                     *       "status": 415,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listRoles: {
        parameters: {
            query?: {
                /** @description The next_cursor of the previous page, passed back unmodified; omitted on the first request */
                after?: string;
                /** @description Largest number of rows in the page, 1 to 100 (default 20); out of range → 400 limit_out_of_range */
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of roles */
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
                     *       ],
                     *       "next_cursor": "string"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Role"][];
                        /** @description Opaque cursor for the next page; null when the read is complete */
                        next_cursor: string | null;
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
                     *       "status": 400,
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
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
                 *         "invoices:read"
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
                    /** @description The path of the role */
                    Location?: string;
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
                     *       "status": 400,
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
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
                     *       "status": 409,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
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
                     *       "status": 415,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
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
            400: components["responses"]["BadRequest"];
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
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
                 *         "invoices:read"
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
                     *       "status": 400,
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
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
                     *       "status": 409,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
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
                     *       "status": 415,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
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
            400: components["responses"]["BadRequest"];
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listScimTokens: {
        parameters: {
            query?: {
                /** @description The next_cursor of the previous page, passed back unmodified; omitted on the first request */
                after?: string;
                /** @description Largest number of rows in the page, 1 to 100 (default 20); out of range → 400 limit_out_of_range */
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of SCIM tokens */
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
                     *       ],
                     *       "next_cursor": "string"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["ScimToken"][];
                        /** @description Opaque cursor for the next page; null when the read is complete */
                        next_cursor: string | null;
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
                     *       "status": 400,
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
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
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "description": "string"
                 *     }
                 */
                "application/json": {
                    /** @description What the token is for (default: SCIM token) */
                    description?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description The path of the SCIM token (GET there shows it without the token) */
                    Location?: string;
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
                     *       "status": 400,
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
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
                     *       "status": 415,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getScimToken: {
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
                     *       "object": "scim_token",
                     *       "description": "string",
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "revoked_at": "2026-03-14T09:26:53.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ScimToken"];
                };
            };
            400: components["responses"]["BadRequest"];
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
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
            400: components["responses"]["BadRequest"];
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listUsers: {
        parameters: {
            query?: {
                active?: boolean;
                /** @description The next_cursor of the previous page, passed back unmodified; omitted on the first request */
                after?: string;
                /** @description Largest number of rows in the page, 1 to 100 (default 20); out of range → 400 limit_out_of_range */
                limit?: number;
                /** @description The person with this userName, compared case-insensitively as sign-in compares it */
                userName?: string;
            };
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
                     *           "object": "user",
                     *           "id": "string",
                     *           "account_id": "string",
                     *           "userName": "string",
                     *           "active": true,
                     *           "created_at": "2026-03-14T09:26:53.000Z",
                     *           "name": {
                     *             "givenName": "string",
                     *             "familyName": "string"
                     *           }
                     *         }
                     *       ],
                     *       "next_cursor": "string"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["User"][];
                        next_cursor: string | null;
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
                     *       "status": 400,
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
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
                     *       "status": 400,
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
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
                     *       "status": 409,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
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
                     *       "status": 415,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
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
            400: components["responses"]["BadRequest"];
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteUser: {
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
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "userName": "string",
                 *       "name": {
                 *         "givenName": "string",
                 *         "familyName": "string"
                 *       }
                 *     }
                 */
                "application/json": {
                    name?: {
                        familyName?: string | null;
                        givenName?: string | null;
                    };
                    userName?: string;
                };
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
                     *       "status": 400,
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
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
                     *       "status": 409,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
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
                     *       "status": 415,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deactivateUser: {
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
            400: components["responses"]["BadRequest"];
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listUserGrants: {
        parameters: {
            query?: {
                /** @description The next_cursor of the previous page, passed back unmodified; omitted on the first request */
                after?: string;
                /** @description Largest number of rows in the page, 1 to 100 (default 20); out of range → 400 limit_out_of_range */
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of grants */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "object": "grant",
                     *           "id": "grant_9Xc4mQ2rT7vL1pW8bN5k",
                     *           "client_id": "cli_7Rk2pV9sQ1mZ4wX8bN3c",
                     *           "scope": "openid profile invoices:read",
                     *           "created_at": "2026-03-14T09:26:53.000Z",
                     *           "expires_at": "2026-03-14T09:26:53.000Z"
                     *         }
                     *       ],
                     *       "next_cursor": "string"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["UserGrant"][];
                        /** @description Opaque cursor for the next page; null when the read is complete */
                        next_cursor: string | null;
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
                     *       "status": 400,
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    revokeUserGrant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                grantId: string;
                id: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    resetUserPassword: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "password": "string"
                 *     }
                 */
                "application/json": {
                    password: string;
                };
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
                     *       "status": 400,
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
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
                     *       "status": 415,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    reactivateUser: {
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
            400: components["responses"]["BadRequest"];
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listUserSessions: {
        parameters: {
            query?: {
                /** @description The next_cursor of the previous page, passed back unmodified; omitted on the first request */
                after?: string;
                /** @description Largest number of rows in the page, 1 to 100 (default 20); out of range → 400 limit_out_of_range */
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of sign-in sessions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "object": "session",
                     *           "id": "sess_3Hd8kP1nV6zQ4tY2mR7j",
                     *           "authenticated_at": "2026-03-14T09:26:53.000Z",
                     *           "expires_at": "2026-03-14T09:26:53.000Z"
                     *         }
                     *       ],
                     *       "next_cursor": "string"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["UserSession"][];
                        /** @description Opaque cursor for the next page; null when the read is complete */
                        next_cursor: string | null;
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
                     *       "status": 400,
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    endUserSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                sessionId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ended */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listAllAuditEvents: {
        parameters: {
            query?: {
                /** @description Only this account */
                account?: string;
                /** @description Only actions starting with this text, e.g. scim.user. or payout */
                action?: string;
                /** @description Only records by this actor id */
                actor?: string;
                /** @description The next_cursor of the previous page, passed back unmodified; omitted on the first request */
                after?: string;
                /** @description Largest number of rows in the page, 1 to 100 (default 20); out of range → 400 limit_out_of_range */
                limit?: number;
                /** @description RFC 3339; records at or after this instant */
                since?: string;
                /** @description Only records about this object id */
                target?: string;
                /** @description RFC 3339; records before this instant */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of audit records */
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
                     *           "object": "audit_event",
                     *           "occurred_at": "2026-03-14T09:26:53.000Z",
                     *           "account": "string",
                     *           "action": "string",
                     *           "actor": {
                     *             "type": "admin",
                     *             "id": "string",
                     *             "display": "string",
                     *             "client": {
                     *               "id": "string",
                     *               "display": "string"
                     *             }
                     *           },
                     *           "target": {
                     *             "type": "string",
                     *             "id": "string"
                     *           },
                     *           "changes": {},
                     *           "seq": 1,
                     *           "detached": true,
                     *           "request_id": "string",
                     *           "idempotency_key": "string",
                     *           "source": {
                     *             "address": "string",
                     *             "user_agent": "string"
                     *           },
                     *           "hash": "string"
                     *         }
                     *       ],
                     *       "next_cursor": "string"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["AuditEvent"][];
                        /** @description Opaque cursor for the next page; null when the read is complete */
                        next_cursor: string | null;
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
                     *       "status": 400,
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    verifyAuditTrail: {
        parameters: {
            query?: {
                account?: string;
                /** @description With account: `<seq>:<hash>` of a record kept outside the database (a SIEM's copy); the chain must still pass through it */
                anchor?: string;
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
                     *       "ok": true,
                     *       "chains": [
                     *         {
                     *           "account": "string",
                     *           "ok": true,
                     *           "records": 1,
                     *           "first_seq": 1,
                     *           "head_seq": 1,
                     *           "head_hash": "string",
                     *           "checkpoints": {
                     *             "verified": 1
                     *           },
                     *           "pending": 1,
                     *           "detached": 1,
                     *           "problem": {
                     *             "kind": "altered",
                     *             "seq": 1,
                     *             "id": "string",
                     *             "detail": "string"
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["AuditVerification"];
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
                     *       "status": 400,
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
                     *       "status": 401,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
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
                     *       "status": 404,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
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
            400: components["responses"]["BadRequest"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text exposition (docs/OPERATIONS.md lists the series) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example # HELP gatehouse_db_up 1 when the database answered the last scrape
                     *     # TYPE gatehouse_db_up gauge
                     *     gatehouse_db_up 1
                     */
                    "text/plain; version=0.0.4; charset=utf-8": string;
                };
            };
            400: components["responses"]["BadRequest"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
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
            400: components["responses"]["BadRequest"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            /** @description Answer */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "503"
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
