/* Generated from openapi/ by npm run openapi (openapi-typescript); do not edit. */

export interface paths {
    "/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The JSON Web Key Set of the server (RFC 7517) */
        get: operations["getJwks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-authorization-server": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Authorization server metadata (RFC 8414) */
        get: operations["getAuthorizationServerMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/openid-configuration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OpenID Provider metadata (OpenID Connect Discovery 1.0); the same document as RFC 8414 */
        get: operations["getOpenIdConfiguration"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Authorization endpoint (RFC 6749 §4.1.1): sign-in and consent pages, then a redirect with code, state and iss */
        get: operations["authorize"];
        put?: never;
        /** Authorization endpoint by form POST (OpenID Connect Core §3.1.2.1): as GET /authorize */
        post: operations["authorizeByPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/authorize/consent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Consent form of the authorization endpoint (Allow or Deny) */
        post: operations["submitConsent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/authorize/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign-in form of the authorization endpoint */
        post: operations["submitSignIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/authorize/switch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** "Not you? Sign out" on the sign-in and consent pages: ends the session, then the same authorization request again */
        post: operations["switchPerson"];
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
    "/introspect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Token introspection (RFC 7662); Accept: application/token-introspection+jwt for a signed answer (RFC 9701)
         * @description The client authenticates with the method it was registered with (`token_endpoint_auth_method`):
         *     - `client_secret_basic`: `Authorization: Basic` of `client_id:client_secret`, each form-urlencoded first (RFC 6749 §2.3.1);
         *     - `client_secret_post`: `client_id` and `client_secret` in the form;
         *     - `private_key_jwt`: `client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer` and `client_assertion`, a JWT signed with a key of the registered `jwks` or `jwks_uri`, with `iss` = `sub` = the client_id, `aud` = the issuer, `exp` at most ten minutes away and a `jti` used once (RFC 7523);
         *     - `none` (a public client, PKCE): `client_id` in the form only.
         *     One method per request: credentials in two places are refused. A failed authentication is 401 `invalid_client` with `WWW-Authenticate: Basic`.
         */
        post: operations["introspectToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** End-session endpoint (OpenID Connect RP-Initiated Logout 1.0) */
        get: operations["logout"];
        put?: never;
        /** End-session endpoint (OpenID Connect RP-Initiated Logout 1.0), its parameters as a form */
        post: operations["submitLogout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/logout/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Confirmation form of the end-session endpoint */
        post: operations["confirmLogout"];
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
    "/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Token revocation (RFC 7009)
         * @description The client authenticates with the method it was registered with (`token_endpoint_auth_method`):
         *     - `client_secret_basic`: `Authorization: Basic` of `client_id:client_secret`, each form-urlencoded first (RFC 6749 §2.3.1);
         *     - `client_secret_post`: `client_id` and `client_secret` in the form;
         *     - `private_key_jwt`: `client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer` and `client_assertion`, a JWT signed with a key of the registered `jwks` or `jwks_uri`, with `iss` = `sub` = the client_id, `aud` = the issuer, `exp` at most ten minutes away and a `jti` used once (RFC 7523);
         *     - `none` (a public client, PKCE): `client_id` in the form only.
         *     One method per request: credentials in two places are refused. A failed authentication is 401 `invalid_client` with `WWW-Authenticate: Basic`.
         */
        post: operations["revokeToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Bulk operations (RFC 7644 §3.7) with bulkId references and failOnErrors */
        post: operations["scimBulk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List or filter groups */
        get: operations["listScimGroups"];
        put?: never;
        /** Create a group */
        post: operations["createScimGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Groups/.search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Search groups (POST /.search) */
        post: operations["searchScimGroups"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Groups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a group */
        get: operations["getScimGroup"];
        /** Replace a group */
        put: operations["replaceScimGroup"];
        post?: never;
        /** Delete a group */
        delete: operations["deleteScimGroup"];
        options?: never;
        head?: never;
        /** Patch a group (RFC 7644 §3.5.2); 204 unless attributes are asked for, so member changes never read the member list */
        patch: operations["patchScimGroup"];
        trace?: never;
    };
    "/scim/v2/ResourceTypes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Resource types */
        get: operations["listScimResourceTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/ResourceTypes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A resource type */
        get: operations["getScimResourceType"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Schemas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Schemas */
        get: operations["listScimSchemas"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Schemas/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A schema */
        get: operations["getScimSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/ServiceProviderConfig": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What this SCIM service supports */
        get: operations["getScimServiceProviderConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List or filter users */
        get: operations["listScimUsers"];
        put?: never;
        /** Create a user */
        post: operations["createScimUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Users/.search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Search users (POST /.search) */
        post: operations["searchScimUsers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scim/v2/Users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a user */
        get: operations["getScimUser"];
        /** Replace a user */
        put: operations["replaceScimUser"];
        post?: never;
        /** Delete a user */
        delete: operations["deleteScimUser"];
        options?: never;
        head?: never;
        /** Patch a user (RFC 7644 §3.5.2); answers 200 with the user */
        patch: operations["patchScimUser"];
        trace?: never;
    };
    "/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Token endpoint (RFC 6749 §3.2): authorization_code, refresh_token, client_credentials
         * @description The client authenticates with the method it was registered with (`token_endpoint_auth_method`):
         *     - `client_secret_basic`: `Authorization: Basic` of `client_id:client_secret`, each form-urlencoded first (RFC 6749 §2.3.1);
         *     - `client_secret_post`: `client_id` and `client_secret` in the form;
         *     - `private_key_jwt`: `client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer` and `client_assertion`, a JWT signed with a key of the registered `jwks` or `jwks_uri`, with `iss` = `sub` = the client_id, `aud` = the issuer, `exp` at most ten minutes away and a `jti` used once (RFC 7523);
         *     - `none` (a public client, PKCE): `client_id` in the form only.
         *     One method per request: credentials in two places are refused. A failed authentication is 401 `invalid_client` with `WWW-Authenticate: Basic`.
         */
        post: operations["requestToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/userinfo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** UserInfo endpoint (OpenID Connect Core §5.3): the claims of the person the access token stands for */
        get: operations["getUserInfo"];
        put?: never;
        /** UserInfo endpoint (OpenID Connect Core §5.3): the claims of the person the access token stands for (POST) */
        post: operations["postUserInfo"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's audit trail, a page at a time
         * @description Newest first by (occurred_at, id). Filters narrow the read; a cursor only continues a read with the same filters. Pass next_cursor as after to read on.
         */
        get: operations["listAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's balance: what a payout may take now, and what pending payouts hold, by currency */
        get: operations["getBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Events of the account, newest first
         * @description The audit trail's records streamed as `audit.*` events are listed only to a token that also holds audit:read.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an event */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/{id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an event again: to the endpoints it was delivered to, or to one endpoint
         * @description Without a body, the event is sent again to every endpoint that had a delivery of it (those it was sent to when raised, and any it was redelivered to) and is still enabled; never to an endpoint that had none. With `endpoint_id`, to that endpoint only, which must be enabled and subscribe to the event's type now (409 otherwise); it need not have had a delivery of it (e.g. registered later, or disabled when the event was raised). An `audit.*` event exists only for a token that also holds audit:read.
         */
        post: operations["redeliverEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List invoices, a page at a time
         * @description Newest first by (created_at, id). Pass next_cursor as after to read on; the read ends when next_cursor is null. Filters narrow the read; a cursor only continues a read with the same filters.
         */
        get: operations["listInvoices"];
        put?: never;
        /** Create an invoice (state open) */
        post: operations["createInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an invoice */
        get: operations["getInvoice"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}/settle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Settle an open invoice
         * @description Moves the invoice to settled, posts cash/balance ledger entries, credits the available balance and emits invoice.settled. A settled invoice answers 409 invoice_already_settled.
         */
        post: operations["settleInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ledger/entries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List ledger entries, a page at a time
         * @description Newest first by (created_at, id). Pass next_cursor as after to read on; the read ends when next_cursor is null. Filters narrow the read; a cursor only continues a read with the same filters.
         */
        get: operations["listLedgerEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payouts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List payouts, a page at a time
         * @description Newest first by (created_at, id). Pass next_cursor as after to read on; the read ends when next_cursor is null. Filters narrow the read; a cursor only continues a read with the same filters.
         */
        get: operations["listPayouts"];
        put?: never;
        /**
         * Create a payout (state pending)
         * @description Takes the amount from the available balance in its currency at once; a larger amount answers 422 insufficient_funds.
         */
        post: operations["createPayout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payouts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a payout */
        get: operations["getPayout"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhook endpoints, newest first */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /** Register a webhook endpoint; the secret is shown only in this response */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a webhook endpoint */
        get: operations["getWebhookEndpoint"];
        put?: never;
        /** Update a webhook endpoint (url, event types, description, headers) */
        post: operations["updateWebhookEndpoint"];
        /** Delete a webhook endpoint and its deliveries */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The attempt log of an endpoint, newest first
         * @description Attempts of the audit trail's `audit.*` events are listed only to a token that also holds audit:read.
         */
        get: operations["listWebhookDeliveryAttempts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Disable a webhook endpoint (its pending deliveries are parked) */
        post: operations["disableWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enable a webhook endpoint */
        post: operations["enableWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Requeue every parked delivery of this endpoint for events raised since a time */
        post: operations["recoverWebhookDeliveries"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}/rotate_secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate the signing secret; the old one keeps signing during the overlap (default 24 h) */
        post: operations["rotateWebhookEndpointSecret"];
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
        Balance: {
            /** @description What a payout may take now, by currency (settled invoices less payouts not failed); currencies holding nothing are left out */
            available: {
                /**
                 * @description Minor units
                 * @example 125000
                 */
                amount: number;
                /** @example EUR */
                currency: string;
            }[];
            /** @constant */
            object: "balance";
            /** @description What payouts still pending hold, by currency: already taken from available, given back if a payout fails */
            pending_payouts: {
                /**
                 * @description Minor units
                 * @example 30000
                 */
                amount: number;
                /**
                 * @description How many payouts
                 * @example 2
                 */
                count: number;
                /** @example EUR */
                currency: string;
            }[];
        };
        Event: {
            /** Format: date-time */
            created_at: string;
            data: components["schemas"]["WebhookEventBody"];
            /** @enum {string} */
            delivery_state: "pending" | "acknowledged" | "parked" | "none";
            id: string;
            /** @constant */
            object: "event";
            type: string;
        };
        Invoice: {
            /**
             * @description Amount in minor units of the currency (e.g. cents), a whole number greater than 0
             * @example 1250
             */
            amount: number;
            /**
             * Format: date-time
             * @description RFC 3339 instant, UTC
             */
            created_at: string;
            /** @example EUR */
            currency: string;
            description: string | null;
            /** @example inv_4fJ1tX9v0QmB7dP2sK8r */
            id: string;
            metadata: {
                [key: string]: string;
            };
            /** @constant */
            object: "invoice";
            /**
             * Format: date-time
             * @description RFC 3339 instant, UTC; null until it happens
             */
            settled_at: string | null;
            /**
             * @description open → settled (once)
             * @enum {string}
             */
            state: "open" | "settled";
        };
        LedgerEntry: {
            /** @description Signed minor units: debits positive, credits negative */
            amount: number;
            /**
             * Format: date-time
             * @description RFC 3339 instant, UTC
             */
            created_at: string;
            currency: string;
            /** @enum {string} */
            direction: "debit" | "credit";
            /** @example le_2bV9sQ1mK7pX0cZ4rT8y */
            id: string;
            /** @enum {string} */
            ledger_account: "cash" | "balance" | "payouts_pending";
            /** @constant */
            object: "ledger_entry";
            source: {
                id: string;
                /** @enum {string} */
                object: "invoice" | "payout";
            };
            /** @description The posting this entry belongs to; its entries sum to zero */
            transaction_id: string;
        };
        NewInvoice: {
            /**
             * @description Amount in minor units of the currency (e.g. cents), a whole number greater than 0
             * @example 1250
             */
            amount: number;
            /**
             * @description ISO 4217 currency code, upper case (e.g. EUR, USD)
             * @example EUR
             * @enum {string}
             */
            currency: "AED" | "AFN" | "ALL" | "AMD" | "ANG" | "AOA" | "ARS" | "AUD" | "AWG" | "AZN" | "BAM" | "BBD" | "BDT" | "BGN" | "BHD" | "BIF" | "BMD" | "BND" | "BOB" | "BRL" | "BSD" | "BTN" | "BWP" | "BYN" | "BZD" | "CAD" | "CDF" | "CHF" | "CLP" | "CNY" | "COP" | "CRC" | "CUP" | "CVE" | "CZK" | "DJF" | "DKK" | "DOP" | "DZD" | "EGP" | "ERN" | "ETB" | "EUR" | "FJD" | "FKP" | "GBP" | "GEL" | "GHS" | "GIP" | "GMD" | "GNF" | "GTQ" | "GYD" | "HKD" | "HNL" | "HTG" | "HUF" | "IDR" | "ILS" | "INR" | "IQD" | "IRR" | "ISK" | "JMD" | "JOD" | "JPY" | "KES" | "KGS" | "KHR" | "KMF" | "KPW" | "KRW" | "KWD" | "KYD" | "KZT" | "LAK" | "LBP" | "LKR" | "LRD" | "LSL" | "LYD" | "MAD" | "MDL" | "MGA" | "MKD" | "MMK" | "MNT" | "MOP" | "MRU" | "MUR" | "MVR" | "MWK" | "MXN" | "MYR" | "MZN" | "NAD" | "NGN" | "NIO" | "NOK" | "NPR" | "NZD" | "OMR" | "PAB" | "PEN" | "PGK" | "PHP" | "PKR" | "PLN" | "PYG" | "QAR" | "RON" | "RSD" | "RUB" | "RWF" | "SAR" | "SBD" | "SCR" | "SDG" | "SEK" | "SGD" | "SHP" | "SLE" | "SOS" | "SRD" | "SSP" | "STN" | "SVC" | "SYP" | "SZL" | "THB" | "TJS" | "TMT" | "TND" | "TOP" | "TRY" | "TTD" | "TWD" | "TZS" | "UAH" | "UGX" | "USD" | "UYU" | "UZS" | "VED" | "VES" | "VND" | "VUV" | "WST" | "XAF" | "XCD" | "XCG" | "XOF" | "XPF" | "YER" | "ZAR" | "ZMW" | "ZWG";
            /** @description Free text; null (or absent) for none, as the invoice shows it */
            description?: string | null;
            /** @description Up to 20 keys (1-40 characters) with string values of up to 500 characters, for your own use */
            metadata?: {
                [key: string]: string;
            };
        };
        NewPayout: {
            /**
             * @description Amount in minor units of the currency (e.g. cents), a whole number greater than 0
             * @example 1250
             */
            amount: number;
            /**
             * @description ISO 4217 currency code, upper case (e.g. EUR, USD)
             * @example EUR
             * @enum {string}
             */
            currency: "AED" | "AFN" | "ALL" | "AMD" | "ANG" | "AOA" | "ARS" | "AUD" | "AWG" | "AZN" | "BAM" | "BBD" | "BDT" | "BGN" | "BHD" | "BIF" | "BMD" | "BND" | "BOB" | "BRL" | "BSD" | "BTN" | "BWP" | "BYN" | "BZD" | "CAD" | "CDF" | "CHF" | "CLP" | "CNY" | "COP" | "CRC" | "CUP" | "CVE" | "CZK" | "DJF" | "DKK" | "DOP" | "DZD" | "EGP" | "ERN" | "ETB" | "EUR" | "FJD" | "FKP" | "GBP" | "GEL" | "GHS" | "GIP" | "GMD" | "GNF" | "GTQ" | "GYD" | "HKD" | "HNL" | "HTG" | "HUF" | "IDR" | "ILS" | "INR" | "IQD" | "IRR" | "ISK" | "JMD" | "JOD" | "JPY" | "KES" | "KGS" | "KHR" | "KMF" | "KPW" | "KRW" | "KWD" | "KYD" | "KZT" | "LAK" | "LBP" | "LKR" | "LRD" | "LSL" | "LYD" | "MAD" | "MDL" | "MGA" | "MKD" | "MMK" | "MNT" | "MOP" | "MRU" | "MUR" | "MVR" | "MWK" | "MXN" | "MYR" | "MZN" | "NAD" | "NGN" | "NIO" | "NOK" | "NPR" | "NZD" | "OMR" | "PAB" | "PEN" | "PGK" | "PHP" | "PKR" | "PLN" | "PYG" | "QAR" | "RON" | "RSD" | "RUB" | "RWF" | "SAR" | "SBD" | "SCR" | "SDG" | "SEK" | "SGD" | "SHP" | "SLE" | "SOS" | "SRD" | "SSP" | "STN" | "SVC" | "SYP" | "SZL" | "THB" | "TJS" | "TMT" | "TND" | "TOP" | "TRY" | "TTD" | "TWD" | "TZS" | "UAH" | "UGX" | "USD" | "UYU" | "UZS" | "VED" | "VES" | "VND" | "VUV" | "WST" | "XAF" | "XCD" | "XCG" | "XOF" | "XPF" | "YER" | "ZAR" | "ZMW" | "ZWG";
            /** @description Where the money goes (e.g. a bank account reference); printable ASCII without spaces. Destinations starting with test_fail always fail. */
            destination: string;
        };
        Payout: {
            /**
             * @description Amount in minor units of the currency (e.g. cents), a whole number greater than 0
             * @example 1250
             */
            amount: number;
            /**
             * Format: date-time
             * @description RFC 3339 instant, UTC
             */
            created_at: string;
            /** @example EUR */
            currency: string;
            destination: string;
            /** @description Why a failed payout failed (destination_rejected); null otherwise */
            failure_code: string | null;
            /** @example po_8Hq2Lm0ZxR4cW7vN1bT5 */
            id: string;
            /** @constant */
            object: "payout";
            /**
             * Format: date-time
             * @description RFC 3339 instant, UTC; null until it happens
             */
            processed_at: string | null;
            /**
             * @description pending → paid, or pending → failed
             * @enum {string}
             */
            state: "pending" | "paid" | "failed";
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
        /** @description RFC 7644 §3.12 SCIM Error */
        ScimError: {
            detail?: string;
            schemas: string[];
            scimType?: string;
            status: string;
        };
        UserInfo: {
            /** Format: email */
            email?: string;
            email_verified?: boolean;
            /** @example Lovelace */
            family_name?: string;
            /** @example Ada */
            given_name?: string;
            /** @example Ada Lovelace */
            name?: string;
            /** @example +44 20 7946 0000 */
            phone_number?: string;
            /** @example ada */
            preferred_username?: string;
            /**
             * @description The subject, as this client sees the person (public or pairwise)
             * @example user_4Qm8sT2vX7kN1pR6aZ3c
             */
            sub: string;
            /**
             * @description Seconds since the epoch
             * @example 1773480413
             */
            updated_at?: number;
        } & {
            [key: string]: unknown;
        };
        WebhookDeliveryAttempt: {
            /** Format: date-time */
            attempted_at?: string;
            error?: string | null;
            event_id?: string;
            event_type?: string;
            /** @description The Delivery-Id the attempt carried */
            id?: string;
            latency_ms?: number;
            /** @constant */
            object?: "webhook_delivery_attempt";
            /** @enum {string} */
            outcome?: "succeeded" | "failed";
            /** @description First 1024 bytes */
            response_body?: string | null;
            response_status?: number | null;
        };
        WebhookEndpoint: {
            /** Format: date-time */
            created_at: string;
            description?: string | null;
            /**
             * @description Why a disabled endpoint is disabled: manual (by its owner), gone (it answered 410 Gone), failing (failures unbroken for GATEHOUSE_WEBHOOK_DISABLE_AFTER), account_closed (its account was closed); null while enabled
             * @enum {string|null}
             */
            disabled_reason?: "manual" | "gone" | "failing" | "account_closed" | null;
            event_types: string[];
            /** @description Values of credential-like names (auth, token, key, secret…) read "[withheld]" */
            headers?: {
                [key: string]: string;
            };
            id: string;
            /** @constant */
            object: "webhook_endpoint";
            /** Format: date-time */
            previous_secret_expires_at?: string | null;
            /** @description Shown only when created or rotated */
            secret?: string;
            /** @enum {string} */
            status: "enabled" | "disabled";
            /** Format: date-time */
            updated_at?: string;
            url: string;
        };
        WebhookEventBody: {
            /**
             * Format: date-time
             * @description When the event was raised
             */
            created_at: string;
            /** @description The object as the API returned it when the event was raised: an Invoice (GET /v1/invoices/{id}), a Payout (GET /v1/payouts/{id}), a WebhookEndpoint less its headers, or an AuditEvent (GET /v1/audit-events). Absent from events raised before it was added. */
            data?: {
                [key: string]: unknown;
            };
            /** @description The event kind; equals the Event-Type header */
            event: string;
            /** @description Identifier of the object concerned */
            id: string;
            /** @description Kind of the object concerned: invoice, payout, webhook_endpoint, audit_event */
            object: string;
            /** @description State of the object when the event was raised (`recorded` for an audit event) */
            state: string;
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
        /** @description Invalid request */
        BadRequestScim: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:api:messages:2.0:Error"
                 *       ],
                 *       "status": "400",
                 *       "detail": "Invalid request"
                 *     }
                 */
                "application/scim+json": components["schemas"]["ScimError"];
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
        /** @description Unexpected failure; the answer names the request id, which the log records */
        InternalErrorJson: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "server_error",
                 *       "error_description": "Unexpected failure; the answer names the request id, which the log records"
                 *     }
                 */
                "application/json": {
                    error: string;
                    error_description?: string;
                };
            };
        };
        /** @description Unexpected failure; the answer names the request id, which the log records */
        InternalErrorPage: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /** @example <!doctype html><html lang="en">…</html> */
                "text/html": string;
            };
        };
        /** @description Unexpected failure; the answer names the request id, which the log records */
        InternalErrorScim: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:api:messages:2.0:Error"
                 *       ],
                 *       "status": "500",
                 *       "detail": "Unexpected failure; the answer names the request id, which the log records"
                 *     }
                 */
                "application/scim+json": components["schemas"]["ScimError"];
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
        /** @description Body too large (GATEHOUSE_BODY_LIMIT) */
        PayloadTooLargePage: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /** @example <!doctype html><html lang="en">…</html> */
                "text/html": string;
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
        /** @description Temporarily unavailable (the database is out of reach, or a concurrent change conflicted); nothing was changed, retry after Retry-After */
        ServiceUnavailableJson: {
            headers: {
                /** @description Seconds to wait before trying again */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "temporarily_unavailable",
                 *       "error_description": "Temporarily unavailable (the database is out of reach, or a concurrent change conflicted); nothing was changed, retry after Retry-After"
                 *     }
                 */
                "application/json": {
                    error: string;
                    error_description?: string;
                };
            };
        };
        /** @description Temporarily unavailable (the database is out of reach, or a concurrent change conflicted); nothing was changed, retry after Retry-After */
        ServiceUnavailablePage: {
            headers: {
                /** @description Seconds to wait before trying again */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                /** @example <!doctype html><html lang="en">…</html> */
                "text/html": string;
            };
        };
        /** @description Temporarily unavailable (the database is out of reach, or a concurrent change conflicted); nothing was changed, retry after Retry-After */
        ServiceUnavailableScim: {
            headers: {
                /** @description Seconds to wait before trying again */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:api:messages:2.0:Error"
                 *       ],
                 *       "status": "503",
                 *       "detail": "Temporarily unavailable (the database is out of reach, or a concurrent change conflicted); nothing was changed, retry after Retry-After"
                 *     }
                 */
                "application/scim+json": components["schemas"]["ScimError"];
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
        /** @description Rate limited; Retry-After says when to try again */
        TooManyRequestsScim: {
            headers: {
                /** @description Seconds to wait before trying again */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "schemas": [
                 *         "urn:ietf:params:scim:api:messages:2.0:Error"
                 *       ],
                 *       "status": "429",
                 *       "detail": "Rate limited; Retry-After says when to try again"
                 *     }
                 */
                "application/scim+json": components["schemas"]["ScimError"];
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
        /** @description Unsupported content type */
        UnsupportedMediaTypePage: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /** @example <!doctype html><html lang="en">…</html> */
                "text/html": string;
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
    getJwks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description RFC 7517 JSON Web Key Set (public keys only) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "keys": [
                     *         {
                     *           "kid": "string",
                     *           "kty": "string",
                     *           "alg": "string",
                     *           "use": "string"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/jwk-set+json": {
                        keys: ({
                            alg?: string;
                            kid?: string;
                            kty?: string;
                            use?: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAuthorizationServerMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The server metadata (RFC 8414 §2, OpenID Connect Discovery 1.0 §3): one document under both names */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "issuer": "https://merchant.example.org/hooks/gatehouse",
                     *       "authorization_endpoint": "https://merchant.example.org/hooks/gatehouse",
                     *       "token_endpoint": "https://merchant.example.org/hooks/gatehouse",
                     *       "jwks_uri": "https://merchant.example.org/hooks/gatehouse",
                     *       "response_types_supported": [
                     *         "string"
                     *       ],
                     *       "subject_types_supported": [
                     *         "string"
                     *       ],
                     *       "id_token_signing_alg_values_supported": [
                     *         "string"
                     *       ],
                     *       "userinfo_endpoint": "https://merchant.example.org/hooks/gatehouse",
                     *       "end_session_endpoint": "https://merchant.example.org/hooks/gatehouse",
                     *       "scopes_supported": [
                     *         "string"
                     *       ],
                     *       "claims_supported": [
                     *         "string"
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** Format: uri */
                        authorization_endpoint: string;
                        claims_supported?: string[];
                        /** Format: uri */
                        end_session_endpoint?: string;
                        id_token_signing_alg_values_supported: string[];
                        /** Format: uri */
                        issuer: string;
                        /** Format: uri */
                        jwks_uri: string;
                        response_types_supported: string[];
                        scopes_supported?: string[];
                        subject_types_supported: string[];
                        /** Format: uri */
                        token_endpoint: string;
                        /** Format: uri */
                        userinfo_endpoint?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOpenIdConfiguration: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The server metadata (RFC 8414 §2, OpenID Connect Discovery 1.0 §3): one document under both names */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "issuer": "https://merchant.example.org/hooks/gatehouse",
                     *       "authorization_endpoint": "https://merchant.example.org/hooks/gatehouse",
                     *       "token_endpoint": "https://merchant.example.org/hooks/gatehouse",
                     *       "jwks_uri": "https://merchant.example.org/hooks/gatehouse",
                     *       "response_types_supported": [
                     *         "string"
                     *       ],
                     *       "subject_types_supported": [
                     *         "string"
                     *       ],
                     *       "id_token_signing_alg_values_supported": [
                     *         "string"
                     *       ],
                     *       "userinfo_endpoint": "https://merchant.example.org/hooks/gatehouse",
                     *       "end_session_endpoint": "https://merchant.example.org/hooks/gatehouse",
                     *       "scopes_supported": [
                     *         "string"
                     *       ],
                     *       "claims_supported": [
                     *         "string"
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** Format: uri */
                        authorization_endpoint: string;
                        claims_supported?: string[];
                        /** Format: uri */
                        end_session_endpoint?: string;
                        id_token_signing_alg_values_supported: string[];
                        /** Format: uri */
                        issuer: string;
                        /** Format: uri */
                        jwks_uri: string;
                        response_types_supported: string[];
                        scopes_supported?: string[];
                        subject_types_supported: string[];
                        /** Format: uri */
                        token_endpoint: string;
                        /** Format: uri */
                        userinfo_endpoint?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    authorize: {
        parameters: {
            query: {
                /**
                 * @description The client making the request
                 * @example cli_7Rk2pV9sQ1mZ4wX8bN3c
                 */
                client_id: string;
                /** @description PKCE (RFC 7636): BASE64URL(SHA256(code_verifier)); required */
                code_challenge: string;
                code_challenge_method: "S256";
                /** @description none, login or consent (OpenID Connect Core §3.1.2.1) */
                prompt?: string;
                /** @description One of the client’s registered redirect URIs, exactly */
                redirect_uri: string;
                /** @description query, the default and the only mode: the answer is in the redirect URI’s query */
                response_mode?: "query";
                /** @description Always code (RFC 6749 §4.1.1) */
                response_type: "code";
                /**
                 * @description Space-separated scopes
                 * @example invoices:read payouts:read
                 */
                scope?: string;
                /** @description Opaque value returned unchanged in the redirect */
                state?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sign-in page, or the consent page for a signed-in person */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
            /** @description Redirect to redirect_uri with code, state and iss (RFC 9207); or with error (invalid_request, unauthorized_client, access_denied, unsupported_response_type, invalid_scope, login_required, consent_required, server_error), error_description, state and iss */
            302: {
                headers: {
                    /** @description The redirect URI with the answer in its query */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /** @example {} */
                    "application/json": unknown;
                };
            };
            /** @description Unknown client, or a redirect URI that is not registered: an error page, never a redirect (RFC 6749 §4.1.2.1) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorPage"];
            503: components["responses"]["ServiceUnavailablePage"];
        };
    };
    authorizeByPost: {
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
                 *       "response_type": "code",
                 *       "client_id": "cli_7Rk2pV9sQ1mZ4wX8bN3c",
                 *       "redirect_uri": "https://merchant.example.org/hooks/gatehouse",
                 *       "code_challenge": "string",
                 *       "code_challenge_method": "S256",
                 *       "scope": "invoices:read payouts:read",
                 *       "state": "string",
                 *       "prompt": "string",
                 *       "response_mode": "query"
                 *     }
                 */
                "application/x-www-form-urlencoded": {
                    /**
                     * @description The client making the request
                     * @example cli_7Rk2pV9sQ1mZ4wX8bN3c
                     */
                    client_id: string;
                    /** @description PKCE (RFC 7636): BASE64URL(SHA256(code_verifier)); required */
                    code_challenge: string;
                    /** @enum {string} */
                    code_challenge_method: "S256";
                    /** @description none, login or consent (OpenID Connect Core §3.1.2.1) */
                    prompt?: string;
                    /**
                     * Format: uri
                     * @description One of the client’s registered redirect URIs, exactly
                     */
                    redirect_uri: string;
                    /**
                     * @description query, the default and the only mode: the answer is in the redirect URI’s query
                     * @enum {string}
                     */
                    response_mode?: "query";
                    /**
                     * @description Always code (RFC 6749 §4.1.1)
                     * @enum {string}
                     */
                    response_type: "code";
                    /**
                     * @description Space-separated scopes
                     * @example invoices:read payouts:read
                     */
                    scope?: string;
                    /** @description Opaque value returned unchanged in the redirect */
                    state?: string;
                };
            };
        };
        responses: {
            /** @description The sign-in page, or the consent page for a signed-in person */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
            /** @description Redirect to redirect_uri with code, state and iss (RFC 9207); or with error (invalid_request, unauthorized_client, access_denied, unsupported_response_type, invalid_scope, login_required, consent_required, server_error), error_description, state and iss */
            303: {
                headers: {
                    /** @description The redirect URI with the answer in its query */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /** @example {} */
                    "application/json": unknown;
                };
            };
            /** @description Unknown client, or a redirect URI that is not registered: an error page, never a redirect (RFC 6749 §4.1.2.1) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLargePage"];
            415: components["responses"]["UnsupportedMediaTypePage"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorPage"];
            503: components["responses"]["ServiceUnavailablePage"];
        };
    };
    submitConsent: {
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
                 *       "client_id": "cli_7Rk2pV9sQ1mZ4wX8bN3c",
                 *       "redirect_uri": "https://merchant.example.org/hooks/gatehouse",
                 *       "decision": "allow",
                 *       "csrf_token": "string",
                 *       "response_type": "code",
                 *       "scope": "invoices:read payouts:read",
                 *       "state": "string",
                 *       "code_challenge": "string",
                 *       "code_challenge_method": "S256",
                 *       "prompt": "string",
                 *       "response_mode": "query"
                 *     }
                 */
                "application/x-www-form-urlencoded": {
                    /**
                     * @description The client making the request
                     * @example cli_7Rk2pV9sQ1mZ4wX8bN3c
                     */
                    client_id: string;
                    /** @description PKCE (RFC 7636): BASE64URL(SHA256(code_verifier)); required */
                    code_challenge?: string;
                    /** @enum {string} */
                    code_challenge_method?: "S256";
                    /** @description From the consent page (bound to the session) */
                    csrf_token: string;
                    /** @enum {string} */
                    decision: "allow" | "deny";
                    /** @description none, login or consent (OpenID Connect Core §3.1.2.1) */
                    prompt?: string;
                    /**
                     * Format: uri
                     * @description One of the client’s registered redirect URIs, exactly
                     */
                    redirect_uri: string;
                    /**
                     * @description query, the default and the only mode: the answer is in the redirect URI’s query
                     * @enum {string}
                     */
                    response_mode?: "query";
                    /**
                     * @description Always code (RFC 6749 §4.1.1)
                     * @enum {string}
                     */
                    response_type?: "code";
                    /**
                     * @description Space-separated scopes
                     * @example invoices:read payouts:read
                     */
                    scope?: string;
                    /** @description Opaque value returned unchanged in the redirect */
                    state?: string;
                };
            };
        };
        responses: {
            /** @description The sign-in page, when the session ended meanwhile */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
            /** @description Redirect to redirect_uri with code, state and iss (RFC 9207); or with error (invalid_request, unauthorized_client, access_denied, unsupported_response_type, invalid_scope, login_required, consent_required, server_error), error_description, state and iss */
            303: {
                headers: {
                    /** @description The redirect URI with the answer in its query */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /** @example {} */
                    "application/json": unknown;
                };
            };
            /** @description Unknown client, or a redirect URI that is not registered: an error page, never a redirect (RFC 6749 §4.1.2.1) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
            /** @description The form expired (CSRF token missing or stale) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLargePage"];
            415: components["responses"]["UnsupportedMediaTypePage"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorPage"];
            503: components["responses"]["ServiceUnavailablePage"];
        };
    };
    submitSignIn: {
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
                 *       "client_id": "cli_7Rk2pV9sQ1mZ4wX8bN3c",
                 *       "redirect_uri": "https://merchant.example.org/hooks/gatehouse",
                 *       "username": "ada",
                 *       "password": "string",
                 *       "csrf_token": "string",
                 *       "response_type": "code",
                 *       "scope": "invoices:read payouts:read",
                 *       "state": "string",
                 *       "code_challenge": "string",
                 *       "code_challenge_method": "S256",
                 *       "prompt": "string",
                 *       "response_mode": "query"
                 *     }
                 */
                "application/x-www-form-urlencoded": {
                    /**
                     * @description The client making the request
                     * @example cli_7Rk2pV9sQ1mZ4wX8bN3c
                     */
                    client_id: string;
                    /** @description PKCE (RFC 7636): BASE64URL(SHA256(code_verifier)); required */
                    code_challenge?: string;
                    /** @enum {string} */
                    code_challenge_method?: "S256";
                    /** @description From the sign-in page (double-submit cookie) */
                    csrf_token: string;
                    /** Format: password */
                    password: string;
                    /** @description none, login or consent (OpenID Connect Core §3.1.2.1) */
                    prompt?: string;
                    /**
                     * Format: uri
                     * @description One of the client’s registered redirect URIs, exactly
                     */
                    redirect_uri: string;
                    /**
                     * @description query, the default and the only mode: the answer is in the redirect URI’s query
                     * @enum {string}
                     */
                    response_mode?: "query";
                    /**
                     * @description Always code (RFC 6749 §4.1.1)
                     * @enum {string}
                     */
                    response_type?: "code";
                    /**
                     * @description Space-separated scopes
                     * @example invoices:read payouts:read
                     */
                    scope?: string;
                    /** @description Opaque value returned unchanged in the redirect */
                    state?: string;
                    /** @example ada */
                    username: string;
                };
            };
        };
        responses: {
            /** @description The consent page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
            /** @description Redirect to redirect_uri with code, state and iss (RFC 9207); or with error (invalid_request, unauthorized_client, access_denied, unsupported_response_type, invalid_scope, login_required, consent_required, server_error), error_description, state and iss */
            303: {
                headers: {
                    /** @description The redirect URI with the answer in its query */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /** @example {} */
                    "application/json": unknown;
                };
            };
            /** @description Unknown client, or a redirect URI that is not registered: an error page, never a redirect (RFC 6749 §4.1.2.1) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
            /** @description Wrong username or password: the sign-in page again */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
            /** @description The form expired (CSRF token missing or stale) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLargePage"];
            415: components["responses"]["UnsupportedMediaTypePage"];
            /** @description Too many sign-in attempts for this name or address; Retry-After says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorPage"];
            503: components["responses"]["ServiceUnavailablePage"];
        };
    };
    switchPerson: {
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
                 *       "client_id": "cli_7Rk2pV9sQ1mZ4wX8bN3c",
                 *       "redirect_uri": "https://merchant.example.org/hooks/gatehouse",
                 *       "csrf_token": "string",
                 *       "response_type": "code",
                 *       "scope": "invoices:read payouts:read",
                 *       "state": "string",
                 *       "code_challenge": "string",
                 *       "code_challenge_method": "S256",
                 *       "prompt": "string",
                 *       "response_mode": "query"
                 *     }
                 */
                "application/x-www-form-urlencoded": {
                    /**
                     * @description The client making the request
                     * @example cli_7Rk2pV9sQ1mZ4wX8bN3c
                     */
                    client_id: string;
                    /** @description PKCE (RFC 7636): BASE64URL(SHA256(code_verifier)); required */
                    code_challenge?: string;
                    /** @enum {string} */
                    code_challenge_method?: "S256";
                    /** @description From the sign-in or consent page (bound to the session) */
                    csrf_token: string;
                    /** @description none, login or consent (OpenID Connect Core §3.1.2.1) */
                    prompt?: string;
                    /**
                     * Format: uri
                     * @description One of the client’s registered redirect URIs, exactly
                     */
                    redirect_uri: string;
                    /**
                     * @description query, the default and the only mode: the answer is in the redirect URI’s query
                     * @enum {string}
                     */
                    response_mode?: "query";
                    /**
                     * @description Always code (RFC 6749 §4.1.1)
                     * @enum {string}
                     */
                    response_type?: "code";
                    /**
                     * @description Space-separated scopes
                     * @example invoices:read payouts:read
                     */
                    scope?: string;
                    /** @description Opaque value returned unchanged in the redirect */
                    state?: string;
                };
            };
        };
        responses: {
            /** @description /authorize with the same authorization request, now without a session: the sign-in page */
            303: {
                headers: {
                    /** @description The redirect URI with the answer in its query */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /** @example {} */
                    "application/json": unknown;
                };
            };
            /** @description Unknown client, or a redirect URI that is not registered: an error page, never a redirect (RFC 6749 §4.1.2.1) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
            /** @description The form expired (its token does not match the session) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLargePage"];
            415: components["responses"]["UnsupportedMediaTypePage"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorPage"];
            503: components["responses"]["ServiceUnavailablePage"];
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
    introspectToken: {
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
                 *       "token": "string",
                 *       "token_type_hint": "string",
                 *       "client_id": "string",
                 *       "client_secret": "string",
                 *       "client_assertion_type": "string",
                 *       "client_assertion": "string"
                 *     }
                 */
                "application/x-www-form-urlencoded": {
                    client_assertion?: string;
                    client_assertion_type?: string;
                    client_id?: string;
                    client_secret?: string;
                    token: string;
                    token_type_hint?: string;
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
                     *       "active": true
                     *     }
                     */
                    "application/json": {
                        active: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description OAuth error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "string",
                     *       "error_description": "string"
                     *     }
                     */
                    "application/json": {
                        error: string;
                        error_description?: string;
                    };
                };
            };
            /** @description Client authentication failed */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "string",
                     *       "error_description": "string"
                     *     }
                     */
                    "application/json": {
                        error: string;
                        error_description?: string;
                    };
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "string",
                     *       "error_description": "string"
                     *     }
                     */
                    "application/json": {
                        error: string;
                        error_description?: string;
                    };
                };
            };
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorJson"];
            503: components["responses"]["ServiceUnavailableJson"];
        };
    };
    logout: {
        parameters: {
            query?: {
                /**
                 * @description The client asking; must be an audience of id_token_hint when both are given
                 * @example cli_7Rk2pV9sQ1mZ4wX8bN3c
                 */
                client_id?: string;
                /** @description An ID token this server issued to the client (expired is fine); names the person and session to sign out */
                id_token_hint?: string;
                /** @description One of the client’s registered post-logout redirect URIs, exactly */
                post_logout_redirect_uri?: string;
                /** @description Opaque value returned unchanged in the redirect */
                state?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out; or, without an id_token_hint naming the person signed in, a page asking them to confirm */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
            /** @description Signed out: redirect to post_logout_redirect_uri with state */
            303: {
                headers: {
                    /** @description The post-logout redirect URI with state in its query */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /** @example {} */
                    "application/json": unknown;
                };
            };
            /** @description A parameter given twice, an id_token_hint this server did not issue, or a redirect URI not registered: an error page, never a redirect */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorPage"];
            503: components["responses"]["ServiceUnavailablePage"];
        };
    };
    submitLogout: {
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
                 *       "id_token_hint": "string",
                 *       "client_id": "cli_7Rk2pV9sQ1mZ4wX8bN3c",
                 *       "post_logout_redirect_uri": "https://merchant.example.org/hooks/gatehouse",
                 *       "state": "string"
                 *     }
                 */
                "application/x-www-form-urlencoded": {
                    /**
                     * @description The client asking; must be an audience of id_token_hint when both are given
                     * @example cli_7Rk2pV9sQ1mZ4wX8bN3c
                     */
                    client_id?: string;
                    /** @description An ID token this server issued to the client (expired is fine); names the person and session to sign out */
                    id_token_hint?: string;
                    /**
                     * Format: uri
                     * @description One of the client’s registered post-logout redirect URIs, exactly
                     */
                    post_logout_redirect_uri?: string;
                    /** @description Opaque value returned unchanged in the redirect */
                    state?: string;
                };
            };
        };
        responses: {
            /** @description Signed out; or, without an id_token_hint naming the person signed in, a page asking them to confirm */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
            /** @description Signed out: redirect to post_logout_redirect_uri with state */
            303: {
                headers: {
                    /** @description The post-logout redirect URI with state in its query */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /** @example {} */
                    "application/json": unknown;
                };
            };
            /** @description A parameter given twice, an id_token_hint this server did not issue, or a redirect URI not registered: an error page, never a redirect */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLargePage"];
            415: components["responses"]["UnsupportedMediaTypePage"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorPage"];
            503: components["responses"]["ServiceUnavailablePage"];
        };
    };
    confirmLogout: {
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
                 *       "decision": "sign_out",
                 *       "csrf_token": "string",
                 *       "id_token_hint": "string",
                 *       "client_id": "cli_7Rk2pV9sQ1mZ4wX8bN3c",
                 *       "post_logout_redirect_uri": "https://merchant.example.org/hooks/gatehouse",
                 *       "state": "string"
                 *     }
                 */
                "application/x-www-form-urlencoded": {
                    /**
                     * @description The client asking; must be an audience of id_token_hint when both are given
                     * @example cli_7Rk2pV9sQ1mZ4wX8bN3c
                     */
                    client_id?: string;
                    /** @description From the confirmation page (bound to the session) */
                    csrf_token: string;
                    /**
                     * @description sign_out ends the session; anything else keeps it
                     * @enum {string}
                     */
                    decision: "sign_out" | "stay";
                    /** @description An ID token this server issued to the client (expired is fine); names the person and session to sign out */
                    id_token_hint?: string;
                    /**
                     * Format: uri
                     * @description One of the client’s registered post-logout redirect URIs, exactly
                     */
                    post_logout_redirect_uri?: string;
                    /** @description Opaque value returned unchanged in the redirect */
                    state?: string;
                };
            };
        };
        responses: {
            /** @description Signed out, or still signed in */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
            /** @description Signed out: redirect to post_logout_redirect_uri with state */
            303: {
                headers: {
                    /** @description The post-logout redirect URI with state in its query */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    /** @example {} */
                    "application/json": unknown;
                };
            };
            /** @description A parameter given twice, an id_token_hint this server did not issue, or a redirect URI not registered: an error page, never a redirect */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
            /** @description The form expired (CSRF token missing or stale) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en">…</html> */
                    "text/html": string;
                };
            };
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLargePage"];
            415: components["responses"]["UnsupportedMediaTypePage"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorPage"];
            503: components["responses"]["ServiceUnavailablePage"];
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
    revokeToken: {
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
                 *       "token": "string",
                 *       "token_type_hint": "string",
                 *       "client_id": "string",
                 *       "client_secret": "string",
                 *       "client_assertion_type": "string",
                 *       "client_assertion": "string"
                 *     }
                 */
                "application/x-www-form-urlencoded": {
                    client_assertion?: string;
                    client_assertion_type?: string;
                    client_id?: string;
                    client_secret?: string;
                    token: string;
                    token_type_hint?: string;
                };
            };
        };
        responses: {
            /** @description Revoked, or not a token of this client */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description OAuth error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "string",
                     *       "error_description": "string"
                     *     }
                     */
                    "application/json": {
                        error: string;
                        error_description?: string;
                    };
                };
            };
            /** @description Client authentication failed */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "string",
                     *       "error_description": "string"
                     *     }
                     */
                    "application/json": {
                        error: string;
                        error_description?: string;
                    };
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "string",
                     *       "error_description": "string"
                     *     }
                     */
                    "application/json": {
                        error: string;
                        error_description?: string;
                    };
                };
            };
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorJson"];
            503: components["responses"]["ServiceUnavailableJson"];
        };
    };
    scimBulk: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example {} */
                "application/json": {
                    [key: string]: unknown;
                };
                /** @example {} */
                "application/scim+json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description A SCIM resource (application/scim+json) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "string"
                     *       ],
                     *       "id": "string"
                     *     }
                     */
                    "application/scim+json": {
                        id?: string;
                        schemas?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description SCIM Error (400) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "400",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (401) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "401",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (403) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "403",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (404) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "404",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description SCIM Error (409) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "409",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (412) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "412",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (413) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "413",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (415) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "415",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            429: components["responses"]["TooManyRequestsScim"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorScim"];
            503: components["responses"]["ServiceUnavailableScim"];
        };
    };
    listScimGroups: {
        parameters: {
            query?: {
                attributes?: string;
                /** @description integer; negative means 0, above filter.maxResults means maxResults */
                count?: string;
                excludedAttributes?: string;
                filter?: string;
                sortBy?: string;
                sortOrder?: "ascending" | "descending";
                /** @description integer, 1-based; below 1 means 1 */
                startIndex?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description SCIM ListResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "string"
                     *       ],
                     *       "totalResults": 1,
                     *       "itemsPerPage": 1,
                     *       "startIndex": 1,
                     *       "Resources": [
                     *         {}
                     *       ]
                     *     }
                     */
                    "application/scim+json": {
                        itemsPerPage?: number;
                        Resources?: {
                            [key: string]: unknown;
                        }[];
                        schemas?: string[];
                        startIndex?: number;
                        totalResults?: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description SCIM Error (400) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "400",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (401) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "401",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (403) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "403",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (404) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "404",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description SCIM Error (409) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "409",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (412) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "412",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (413) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "413",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (415) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "415",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            429: components["responses"]["TooManyRequestsScim"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorScim"];
            503: components["responses"]["ServiceUnavailableScim"];
        };
    };
    createScimGroup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example {} */
                "application/json": {
                    [key: string]: unknown;
                };
                /** @example {} */
                "application/scim+json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description A SCIM resource (application/scim+json) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "string"
                     *       ],
                     *       "id": "string"
                     *     }
                     */
                    "application/scim+json": {
                        id?: string;
                        schemas?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description SCIM Error (400) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "400",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (401) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "401",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (403) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "403",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (404) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "404",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description SCIM Error (409) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "409",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (412) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "412",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (413) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "413",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (415) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "415",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            429: components["responses"]["TooManyRequestsScim"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorScim"];
            503: components["responses"]["ServiceUnavailableScim"];
        };
    };
    searchScimGroups: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example {} */
                "application/json": {
                    [key: string]: unknown;
                };
                /** @example {} */
                "application/scim+json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description SCIM ListResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "string"
                     *       ],
                     *       "totalResults": 1,
                     *       "itemsPerPage": 1,
                     *       "startIndex": 1,
                     *       "Resources": [
                     *         {}
                     *       ]
                     *     }
                     */
                    "application/scim+json": {
                        itemsPerPage?: number;
                        Resources?: {
                            [key: string]: unknown;
                        }[];
                        schemas?: string[];
                        startIndex?: number;
                        totalResults?: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description SCIM Error (400) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "400",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (401) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "401",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (403) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "403",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (404) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "404",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description SCIM Error (409) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "409",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (412) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "412",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (413) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "413",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (415) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "415",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            429: components["responses"]["TooManyRequestsScim"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorScim"];
            503: components["responses"]["ServiceUnavailableScim"];
        };
    };
    getScimGroup: {
        parameters: {
            query?: {
                attributes?: string;
                excludedAttributes?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A SCIM resource (application/scim+json) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "string"
                     *       ],
                     *       "id": "string"
                     *     }
                     */
                    "application/scim+json": {
                        id?: string;
                        schemas?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not modified (the If-None-Match version is current) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description SCIM Error (400) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "400",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (401) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "401",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (403) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "403",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (404) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "404",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description SCIM Error (409) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "409",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (412) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "412",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (413) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "413",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (415) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "415",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            429: components["responses"]["TooManyRequestsScim"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorScim"];
            503: components["responses"]["ServiceUnavailableScim"];
        };
    };
    replaceScimGroup: {
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
                /** @example {} */
                "application/json": {
                    [key: string]: unknown;
                };
                /** @example {} */
                "application/scim+json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description A SCIM resource (application/scim+json) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "string"
                     *       ],
                     *       "id": "string"
                     *     }
                     */
                    "application/scim+json": {
                        id?: string;
                        schemas?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description SCIM Error (400) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "400",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (401) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "401",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (403) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "403",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (404) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "404",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description SCIM Error (409) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "409",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (412) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "412",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (413) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "413",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (415) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "415",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            429: components["responses"]["TooManyRequestsScim"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorScim"];
            503: components["responses"]["ServiceUnavailableScim"];
        };
    };
    deleteScimGroup: {
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
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description SCIM Error (400) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "400",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (401) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "401",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (403) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "403",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (404) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "404",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description SCIM Error (409) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "409",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (412) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "412",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (413) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "413",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (415) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "415",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            429: components["responses"]["TooManyRequestsScim"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorScim"];
            503: components["responses"]["ServiceUnavailableScim"];
        };
    };
    patchScimGroup: {
        parameters: {
            query?: {
                attributes?: string;
                excludedAttributes?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example {} */
                "application/json": {
                    [key: string]: unknown;
                };
                /** @example {} */
                "application/scim+json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description A SCIM resource (application/scim+json) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "string"
                     *       ],
                     *       "id": "string"
                     *     }
                     */
                    "application/scim+json": {
                        id?: string;
                        schemas?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description SCIM Error (400) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "400",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (401) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "401",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (403) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "403",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (404) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "404",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description SCIM Error (409) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "409",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (412) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "412",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (413) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "413",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (415) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "415",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            429: components["responses"]["TooManyRequestsScim"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorScim"];
            503: components["responses"]["ServiceUnavailableScim"];
        };
    };
    listScimResourceTypes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A SCIM resource (application/scim+json) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "string"
                     *       ],
                     *       "id": "string"
                     *     }
                     */
                    "application/scim+json": {
                        id?: string;
                        schemas?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["BadRequestScim"];
            /** @description SCIM Error (401) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "401",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (404) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "404",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequestsScim"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorScim"];
            503: components["responses"]["ServiceUnavailableScim"];
        };
    };
    getScimResourceType: {
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
            /** @description A SCIM resource (application/scim+json) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "string"
                     *       ],
                     *       "id": "string"
                     *     }
                     */
                    "application/scim+json": {
                        id?: string;
                        schemas?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["BadRequestScim"];
            /** @description SCIM Error (401) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "401",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (404) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "404",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequestsScim"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorScim"];
            503: components["responses"]["ServiceUnavailableScim"];
        };
    };
    listScimSchemas: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A SCIM resource (application/scim+json) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "string"
                     *       ],
                     *       "id": "string"
                     *     }
                     */
                    "application/scim+json": {
                        id?: string;
                        schemas?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["BadRequestScim"];
            /** @description SCIM Error (401) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "401",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (404) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "404",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequestsScim"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorScim"];
            503: components["responses"]["ServiceUnavailableScim"];
        };
    };
    getScimSchema: {
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
            /** @description A SCIM resource (application/scim+json) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "string"
                     *       ],
                     *       "id": "string"
                     *     }
                     */
                    "application/scim+json": {
                        id?: string;
                        schemas?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["BadRequestScim"];
            /** @description SCIM Error (401) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "401",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (404) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "404",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequestsScim"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorScim"];
            503: components["responses"]["ServiceUnavailableScim"];
        };
    };
    getScimServiceProviderConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A SCIM resource (application/scim+json) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "string"
                     *       ],
                     *       "id": "string"
                     *     }
                     */
                    "application/scim+json": {
                        id?: string;
                        schemas?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            400: components["responses"]["BadRequestScim"];
            /** @description SCIM Error (401) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "401",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (404) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "404",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequestsScim"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorScim"];
            503: components["responses"]["ServiceUnavailableScim"];
        };
    };
    listScimUsers: {
        parameters: {
            query?: {
                attributes?: string;
                /** @description integer; negative means 0, above filter.maxResults means maxResults */
                count?: string;
                excludedAttributes?: string;
                filter?: string;
                sortBy?: string;
                sortOrder?: "ascending" | "descending";
                /** @description integer, 1-based; below 1 means 1 */
                startIndex?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description SCIM ListResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "string"
                     *       ],
                     *       "totalResults": 1,
                     *       "itemsPerPage": 1,
                     *       "startIndex": 1,
                     *       "Resources": [
                     *         {}
                     *       ]
                     *     }
                     */
                    "application/scim+json": {
                        itemsPerPage?: number;
                        Resources?: {
                            [key: string]: unknown;
                        }[];
                        schemas?: string[];
                        startIndex?: number;
                        totalResults?: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description SCIM Error (400) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "400",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (401) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "401",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (403) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "403",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (404) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "404",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description SCIM Error (409) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "409",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (412) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "412",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (413) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "413",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (415) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "415",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            429: components["responses"]["TooManyRequestsScim"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorScim"];
            503: components["responses"]["ServiceUnavailableScim"];
        };
    };
    createScimUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example {} */
                "application/json": {
                    [key: string]: unknown;
                };
                /** @example {} */
                "application/scim+json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description A SCIM resource (application/scim+json) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "string"
                     *       ],
                     *       "id": "string"
                     *     }
                     */
                    "application/scim+json": {
                        id?: string;
                        schemas?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description SCIM Error (400) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "400",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (401) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "401",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (403) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "403",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (404) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "404",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description SCIM Error (409) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "409",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (412) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "412",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (413) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "413",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (415) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "415",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            429: components["responses"]["TooManyRequestsScim"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorScim"];
            503: components["responses"]["ServiceUnavailableScim"];
        };
    };
    searchScimUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example {} */
                "application/json": {
                    [key: string]: unknown;
                };
                /** @example {} */
                "application/scim+json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description SCIM ListResponse */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "string"
                     *       ],
                     *       "totalResults": 1,
                     *       "itemsPerPage": 1,
                     *       "startIndex": 1,
                     *       "Resources": [
                     *         {}
                     *       ]
                     *     }
                     */
                    "application/scim+json": {
                        itemsPerPage?: number;
                        Resources?: {
                            [key: string]: unknown;
                        }[];
                        schemas?: string[];
                        startIndex?: number;
                        totalResults?: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description SCIM Error (400) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "400",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (401) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "401",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (403) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "403",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (404) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "404",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description SCIM Error (409) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "409",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (412) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "412",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (413) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "413",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (415) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "415",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            429: components["responses"]["TooManyRequestsScim"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorScim"];
            503: components["responses"]["ServiceUnavailableScim"];
        };
    };
    getScimUser: {
        parameters: {
            query?: {
                attributes?: string;
                excludedAttributes?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A SCIM resource (application/scim+json) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "string"
                     *       ],
                     *       "id": "string"
                     *     }
                     */
                    "application/scim+json": {
                        id?: string;
                        schemas?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not modified (the If-None-Match version is current) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description SCIM Error (400) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "400",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (401) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "401",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (403) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "403",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (404) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "404",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description SCIM Error (409) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "409",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (412) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "412",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (413) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "413",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (415) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "415",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            429: components["responses"]["TooManyRequestsScim"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorScim"];
            503: components["responses"]["ServiceUnavailableScim"];
        };
    };
    replaceScimUser: {
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
                /** @example {} */
                "application/json": {
                    [key: string]: unknown;
                };
                /** @example {} */
                "application/scim+json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description A SCIM resource (application/scim+json) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "string"
                     *       ],
                     *       "id": "string"
                     *     }
                     */
                    "application/scim+json": {
                        id?: string;
                        schemas?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description SCIM Error (400) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "400",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (401) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "401",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (403) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "403",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (404) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "404",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description SCIM Error (409) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "409",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (412) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "412",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (413) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "413",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (415) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "415",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            429: components["responses"]["TooManyRequestsScim"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorScim"];
            503: components["responses"]["ServiceUnavailableScim"];
        };
    };
    deleteScimUser: {
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
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description SCIM Error (400) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "400",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (401) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "401",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (403) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "403",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (404) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "404",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description SCIM Error (409) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "409",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (412) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "412",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (413) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "413",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (415) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "415",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            429: components["responses"]["TooManyRequestsScim"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorScim"];
            503: components["responses"]["ServiceUnavailableScim"];
        };
    };
    patchScimUser: {
        parameters: {
            query?: {
                attributes?: string;
                excludedAttributes?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example {} */
                "application/json": {
                    [key: string]: unknown;
                };
                /** @example {} */
                "application/scim+json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description A SCIM resource (application/scim+json) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "string"
                     *       ],
                     *       "id": "string"
                     *     }
                     */
                    "application/scim+json": {
                        id?: string;
                        schemas?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description SCIM Error (400) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "400",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (401) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "401",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (403) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "403",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (404) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "404",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description SCIM Error (409) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "409",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (412) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "412",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (413) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "413",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            /** @description SCIM Error (415) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "schemas": [
                     *         "urn:ietf:params:scim:api:messages:2.0:Error"
                     *       ],
                     *       "status": "415",
                     *       "scimType": "string",
                     *       "detail": "string"
                     *     }
                     */
                    "application/scim+json": components["schemas"]["ScimError"];
                };
            };
            429: components["responses"]["TooManyRequestsScim"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorScim"];
            503: components["responses"]["ServiceUnavailableScim"];
        };
    };
    requestToken: {
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
                 *       "grant_type": "string",
                 *       "code": "string",
                 *       "redirect_uri": "string",
                 *       "code_verifier": "string",
                 *       "refresh_token": "string",
                 *       "scope": "string",
                 *       "client_id": "string",
                 *       "client_secret": "string",
                 *       "client_assertion_type": "string",
                 *       "client_assertion": "string"
                 *     }
                 */
                "application/x-www-form-urlencoded": {
                    client_assertion?: string;
                    client_assertion_type?: string;
                    client_id?: string;
                    client_secret?: string;
                    code?: string;
                    code_verifier?: string;
                    grant_type?: string;
                    redirect_uri?: string;
                    refresh_token?: string;
                    scope?: string;
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
                     *       "access_token": "string",
                     *       "token_type": "string",
                     *       "expires_in": 1,
                     *       "scope": "string",
                     *       "refresh_token": "string",
                     *       "id_token": "string"
                     *     }
                     */
                    "application/json": {
                        access_token: string;
                        expires_in: number;
                        /** @description OpenID Connect: when the scope holds openid */
                        id_token?: string;
                        refresh_token?: string;
                        scope: string;
                        token_type: string;
                    };
                };
            };
            /** @description OAuth error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "string",
                     *       "error_description": "string"
                     *     }
                     */
                    "application/json": {
                        error: string;
                        error_description?: string;
                    };
                };
            };
            /** @description Client authentication failed */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "string",
                     *       "error_description": "string"
                     *     }
                     */
                    "application/json": {
                        error: string;
                        error_description?: string;
                    };
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description Rate limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "string",
                     *       "error_description": "string"
                     *     }
                     */
                    "application/json": {
                        error: string;
                        error_description?: string;
                    };
                };
            };
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalErrorJson"];
            503: components["responses"]["ServiceUnavailableJson"];
        };
    };
    getUserInfo: {
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
                     *       "sub": "user_4Qm8sT2vX7kN1pR6aZ3c",
                     *       "name": "Ada Lovelace",
                     *       "given_name": "Ada",
                     *       "family_name": "Lovelace",
                     *       "preferred_username": "ada",
                     *       "email": "ada@example.org",
                     *       "email_verified": true,
                     *       "phone_number": "+44 20 7946 0000",
                     *       "updated_at": 1773480413
                     *     }
                     */
                    "application/json": components["schemas"]["UserInfo"];
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postUserInfo: {
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
                     *       "sub": "user_4Qm8sT2vX7kN1pR6aZ3c",
                     *       "name": "Ada Lovelace",
                     *       "given_name": "Ada",
                     *       "family_name": "Lovelace",
                     *       "preferred_username": "ada",
                     *       "email": "ada@example.org",
                     *       "email_verified": true,
                     *       "phone_number": "+44 20 7946 0000",
                     *       "updated_at": 1773480413
                     *     }
                     */
                    "application/json": components["schemas"]["UserInfo"];
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
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
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listAuditEvents: {
        parameters: {
            query?: {
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description Rate limited; Retry-After says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 429,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getBalance: {
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
                     *       "object": "balance",
                     *       "available": [
                     *         {
                     *           "currency": "EUR",
                     *           "amount": 125000
                     *         }
                     *       ],
                     *       "pending_payouts": [
                     *         {
                     *           "currency": "EUR",
                     *           "amount": 30000,
                     *           "count": 2
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Balance"];
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description Rate limited; Retry-After says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 429,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description The next_cursor of the previous page, passed back unmodified; omitted on the first request */
                after?: string;
                delivery_state?: "pending" | "acknowledged" | "parked" | "none";
                /** @description Largest number of rows in the page, 1 to 100 (default 20); out of range → 400 limit_out_of_range */
                limit?: number;
                /** @description RFC 3339 date-time (e.g. 2026-11-01T00:00:00Z): only events raised at or after this instant */
                since?: string;
                type?: string;
                /** @description RFC 3339 date-time: only events raised before this instant */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events */
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
                     *           "object": "event",
                     *           "type": "string",
                     *           "created_at": "2026-03-14T09:26:53.000Z",
                     *           "data": {
                     *             "event": "string",
                     *             "object": "string",
                     *             "id": "string",
                     *             "state": "string",
                     *             "created_at": "2026-03-14T09:26:53.000Z",
                     *             "data": {}
                     *           },
                     *           "delivery_state": "pending"
                     *         }
                     *       ],
                     *       "next_cursor": "string"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Event"][];
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
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
    getEvent: {
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
                     *       "id": "string",
                     *       "object": "event",
                     *       "type": "string",
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "data": {
                     *         "event": "string",
                     *         "object": "string",
                     *         "id": "string",
                     *         "state": "string",
                     *         "created_at": "2026-03-14T09:26:53.000Z",
                     *         "data": {}
                     *       },
                     *       "delivery_state": "pending"
                     *     }
                     */
                    "application/json": components["schemas"]["Event"];
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
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
    redeliverEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description Required. A value you generate at random for each operation (e.g. a UUID) and send again, unchanged, on every retry of it. Scoped to your credential; kept 24 h by default. See docs/IDEMPOTENCY.md. */
                "Idempotency-Key": string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "endpoint_id": "we_4Qm8sT2vX7kN1pR6aZ3c"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description Send the event to this endpoint (we_…) only
                     * @example we_4Qm8sT2vX7kN1pR6aZ3c
                     */
                    endpoint_id?: string;
                };
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "string",
                     *       "event_id": "string",
                     *       "endpoint_id": "string",
                     *       "requeued": 1
                     *     }
                     */
                    "application/json": {
                        /** @description The endpoint asked for, when one was */
                        endpoint_id?: string;
                        event_id?: string;
                        object?: string;
                        requeued?: number;
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
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
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
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
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
                    /** @description On 409 idempotency_key_in_use: seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
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
    listInvoices: {
        parameters: {
            query?: {
                /** @description The next_cursor of the previous page, passed back unmodified; omitted on the first request */
                after?: string;
                /** @description Largest number of rows in the page, 1 to 100 (default 20); out of range → 400 limit_out_of_range */
                limit?: number;
                /** @description RFC 3339 date-time (e.g. 2026-11-01T00:00:00Z): only rows created at or after this instant */
                since?: string;
                /** @description Only invoices in this state */
                state?: "open" | "settled";
                /** @description RFC 3339 date-time: only rows created before this instant */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of invoices */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "inv_4fJ1tX9v0QmB7dP2sK8r",
                     *           "object": "invoice",
                     *           "amount": 1250,
                     *           "currency": "EUR",
                     *           "description": "string",
                     *           "metadata": {},
                     *           "state": "open",
                     *           "created_at": "2026-03-14T09:26:53.000Z",
                     *           "settled_at": "2026-03-14T09:26:53.000Z"
                     *         }
                     *       ],
                     *       "next_cursor": "string"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Invoice"][];
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description Rate limited; Retry-After says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 429,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createInvoice: {
        parameters: {
            query?: never;
            header: {
                /** @description Required. A value you generate at random for each operation (e.g. a UUID) and send again, unchanged, on every retry of it. Scoped to your credential; kept 24 h by default. See docs/IDEMPOTENCY.md. */
                "Idempotency-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "amount": 1250,
                 *       "currency": "EUR",
                 *       "description": "string",
                 *       "metadata": {}
                 *     }
                 */
                "application/json": components["schemas"]["NewInvoice"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "inv_4fJ1tX9v0QmB7dP2sK8r",
                     *       "object": "invoice",
                     *       "amount": 1250,
                     *       "currency": "EUR",
                     *       "description": "string",
                     *       "metadata": {},
                     *       "state": "open",
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "settled_at": "2026-03-14T09:26:53.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Invoice"];
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
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
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
                    /** @description On 409 idempotency_key_in_use: seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
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
            /** @description Rate limited; Retry-After says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 429,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getInvoice: {
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
                     *       "id": "inv_4fJ1tX9v0QmB7dP2sK8r",
                     *       "object": "invoice",
                     *       "amount": 1250,
                     *       "currency": "EUR",
                     *       "description": "string",
                     *       "metadata": {},
                     *       "state": "open",
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "settled_at": "2026-03-14T09:26:53.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Invoice"];
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
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
            /** @description Rate limited; Retry-After says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 429,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    settleInvoice: {
        parameters: {
            query?: never;
            header: {
                /** @description Required. A value you generate at random for each operation (e.g. a UUID) and send again, unchanged, on every retry of it. Scoped to your credential; kept 24 h by default. See docs/IDEMPOTENCY.md. */
                "Idempotency-Key": string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description No members: the path names everything the action needs */
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "inv_4fJ1tX9v0QmB7dP2sK8r",
                     *       "object": "invoice",
                     *       "amount": 1250,
                     *       "currency": "EUR",
                     *       "description": "string",
                     *       "metadata": {},
                     *       "state": "open",
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "settled_at": "2026-03-14T09:26:53.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Invoice"];
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
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
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
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
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
                    /** @description On 409 idempotency_key_in_use: seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
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
            /** @description Rate limited; Retry-After says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 429,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listLedgerEntries: {
        parameters: {
            query?: {
                /** @description The next_cursor of the previous page, passed back unmodified; omitted on the first request */
                after?: string;
                /**
                 * @description Only entries in this currency: its ISO 4217 code, upper case (e.g. EUR)
                 * @example EUR
                 */
                currency?: "AED" | "AFN" | "ALL" | "AMD" | "ANG" | "AOA" | "ARS" | "AUD" | "AWG" | "AZN" | "BAM" | "BBD" | "BDT" | "BGN" | "BHD" | "BIF" | "BMD" | "BND" | "BOB" | "BRL" | "BSD" | "BTN" | "BWP" | "BYN" | "BZD" | "CAD" | "CDF" | "CHF" | "CLP" | "CNY" | "COP" | "CRC" | "CUP" | "CVE" | "CZK" | "DJF" | "DKK" | "DOP" | "DZD" | "EGP" | "ERN" | "ETB" | "EUR" | "FJD" | "FKP" | "GBP" | "GEL" | "GHS" | "GIP" | "GMD" | "GNF" | "GTQ" | "GYD" | "HKD" | "HNL" | "HTG" | "HUF" | "IDR" | "ILS" | "INR" | "IQD" | "IRR" | "ISK" | "JMD" | "JOD" | "JPY" | "KES" | "KGS" | "KHR" | "KMF" | "KPW" | "KRW" | "KWD" | "KYD" | "KZT" | "LAK" | "LBP" | "LKR" | "LRD" | "LSL" | "LYD" | "MAD" | "MDL" | "MGA" | "MKD" | "MMK" | "MNT" | "MOP" | "MRU" | "MUR" | "MVR" | "MWK" | "MXN" | "MYR" | "MZN" | "NAD" | "NGN" | "NIO" | "NOK" | "NPR" | "NZD" | "OMR" | "PAB" | "PEN" | "PGK" | "PHP" | "PKR" | "PLN" | "PYG" | "QAR" | "RON" | "RSD" | "RUB" | "RWF" | "SAR" | "SBD" | "SCR" | "SDG" | "SEK" | "SGD" | "SHP" | "SLE" | "SOS" | "SRD" | "SSP" | "STN" | "SVC" | "SYP" | "SZL" | "THB" | "TJS" | "TMT" | "TND" | "TOP" | "TRY" | "TTD" | "TWD" | "TZS" | "UAH" | "UGX" | "USD" | "UYU" | "UZS" | "VED" | "VES" | "VND" | "VUV" | "WST" | "XAF" | "XCD" | "XCG" | "XOF" | "XPF" | "YER" | "ZAR" | "ZMW" | "ZWG";
                /** @description Only debits or only credits */
                direction?: "debit" | "credit";
                /** @description Only entries of this ledger account */
                ledger_account?: "cash" | "balance" | "payouts_pending";
                /** @description Largest number of rows in the page, 1 to 100 (default 20); out of range → 400 limit_out_of_range */
                limit?: number;
                /** @description RFC 3339 date-time (e.g. 2026-11-01T00:00:00Z): only rows created at or after this instant */
                since?: string;
                /** @description RFC 3339 date-time: only rows created before this instant */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of ledger entries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "le_2bV9sQ1mK7pX0cZ4rT8y",
                     *           "object": "ledger_entry",
                     *           "transaction_id": "string",
                     *           "ledger_account": "cash",
                     *           "direction": "debit",
                     *           "amount": 1,
                     *           "currency": "string",
                     *           "source": {
                     *             "object": "invoice",
                     *             "id": "string"
                     *           },
                     *           "created_at": "2026-03-14T09:26:53.000Z"
                     *         }
                     *       ],
                     *       "next_cursor": "string"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["LedgerEntry"][];
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description Rate limited; Retry-After says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 429,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listPayouts: {
        parameters: {
            query?: {
                /** @description The next_cursor of the previous page, passed back unmodified; omitted on the first request */
                after?: string;
                /** @description Largest number of rows in the page, 1 to 100 (default 20); out of range → 400 limit_out_of_range */
                limit?: number;
                /** @description RFC 3339 date-time (e.g. 2026-11-01T00:00:00Z): only rows created at or after this instant */
                since?: string;
                /** @description Only payouts in this state */
                state?: "pending" | "paid" | "failed";
                /** @description RFC 3339 date-time: only rows created before this instant */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of payouts */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "po_8Hq2Lm0ZxR4cW7vN1bT5",
                     *           "object": "payout",
                     *           "amount": 1250,
                     *           "currency": "EUR",
                     *           "destination": "string",
                     *           "state": "pending",
                     *           "failure_code": "string",
                     *           "created_at": "2026-03-14T09:26:53.000Z",
                     *           "processed_at": "2026-03-14T09:26:53.000Z"
                     *         }
                     *       ],
                     *       "next_cursor": "string"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["Payout"][];
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description Rate limited; Retry-After says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 429,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createPayout: {
        parameters: {
            query?: never;
            header: {
                /** @description Required. A value you generate at random for each operation (e.g. a UUID) and send again, unchanged, on every retry of it. Scoped to your credential; kept 24 h by default. See docs/IDEMPOTENCY.md. */
                "Idempotency-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "amount": 1250,
                 *       "currency": "EUR",
                 *       "destination": "string"
                 *     }
                 */
                "application/json": components["schemas"]["NewPayout"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "po_8Hq2Lm0ZxR4cW7vN1bT5",
                     *       "object": "payout",
                     *       "amount": 1250,
                     *       "currency": "EUR",
                     *       "destination": "string",
                     *       "state": "pending",
                     *       "failure_code": "string",
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "processed_at": "2026-03-14T09:26:53.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Payout"];
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
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
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
                    /** @description On 409 idempotency_key_in_use: seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
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
            /** @description Business rule refused the request */
            422: {
                headers: {
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 422,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Rate limited; Retry-After says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 429,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPayout: {
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
                     *       "id": "po_8Hq2Lm0ZxR4cW7vN1bT5",
                     *       "object": "payout",
                     *       "amount": 1250,
                     *       "currency": "EUR",
                     *       "destination": "string",
                     *       "state": "pending",
                     *       "failure_code": "string",
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "processed_at": "2026-03-14T09:26:53.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Payout"];
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
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
            /** @description Rate limited; Retry-After says when to try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 429,
                     *       "code": "string",
                     *       "detail": "string",
                     *       "instance": "string"
                     *     }
                     */
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                /** @description The next_cursor of the previous page, passed back unmodified; omitted on the first request */
                after?: string;
                /** @description Largest number of rows in the page, 1 to 100 (default 20); out of range → 400 limit_out_of_range */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of webhook endpoints */
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
                     *           "object": "webhook_endpoint",
                     *           "url": "string",
                     *           "event_types": [
                     *             "string"
                     *           ],
                     *           "status": "enabled",
                     *           "created_at": "2026-03-14T09:26:53.000Z",
                     *           "description": "string",
                     *           "headers": {},
                     *           "disabled_reason": "manual",
                     *           "previous_secret_expires_at": "2026-03-14T09:26:53.000Z",
                     *           "updated_at": "2026-03-14T09:26:53.000Z",
                     *           "secret": "string"
                     *         }
                     *       ],
                     *       "next_cursor": "string"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["WebhookEndpoint"][];
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
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
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header: {
                /** @description Required. A value you generate at random for each operation (e.g. a UUID) and send again, unchanged, on every retry of it. Scoped to your credential; kept 24 h by default. See docs/IDEMPOTENCY.md. */
                "Idempotency-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "string",
                 *       "event_types": [
                 *         "invoice.settled"
                 *       ],
                 *       "description": "string",
                 *       "headers": {}
                 *     }
                 */
                "application/json": {
                    description?: string | null;
                    event_types: ("invoice.settled" | "payout.created" | "payout.paid" | "payout.failed" | "webhook_endpoint.disabled" | "*" | "audit.*" | "audit.account.created" | "audit.account.updated" | "audit.account.deleted" | "audit.client.created" | "audit.client.updated" | "audit.client.deleted" | "audit.client.secret_rotated" | "audit.client.tokens_revoked" | "audit.user.created" | "audit.user.updated" | "audit.user.deactivated" | "audit.user.reactivated" | "audit.user.deleted" | "audit.user.password_reset" | "audit.grant.revoked" | "audit.session.revoked" | "audit.scim_token.created" | "audit.scim_token.revoked" | "audit.role.created" | "audit.role.updated" | "audit.role.deleted" | "audit.signin.succeeded" | "audit.signin.failed" | "audit.consent.granted" | "audit.consent.denied" | "audit.consent.withdrawn" | "audit.token.revoked" | "audit.session.ended" | "audit.logout_delivery.retried" | "audit.grant.replay_revoked" | "audit.scim.user.created" | "audit.scim.user.replaced" | "audit.scim.user.patched" | "audit.scim.user.deactivated" | "audit.scim.user.deleted" | "audit.scim.group.created" | "audit.scim.group.replaced" | "audit.scim.group.patched" | "audit.scim.group.deleted" | "audit.invoice.created" | "audit.invoice.settled" | "audit.payout.created" | "audit.payout.paid" | "audit.payout.failed" | "audit.webhook_endpoint.created" | "audit.webhook_endpoint.updated" | "audit.webhook_endpoint.deleted" | "audit.webhook_endpoint.enabled" | "audit.webhook_endpoint.disabled" | "audit.webhook_endpoint.secret_rotated" | "audit.webhook_endpoint.recovered" | "audit.event.redelivered")[];
                    /** @description Headers added to every delivery (at most 20); names that carry the delivery's own meaning (signature, ids, framing) are refused. On update the whole set is replaced; {} removes them all. */
                    headers?: {
                        [key: string]: string;
                    };
                    url: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "string",
                     *       "object": "webhook_endpoint",
                     *       "url": "string",
                     *       "event_types": [
                     *         "string"
                     *       ],
                     *       "status": "enabled",
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "description": "string",
                     *       "headers": {},
                     *       "disabled_reason": "manual",
                     *       "previous_secret_expires_at": "2026-03-14T09:26:53.000Z",
                     *       "updated_at": "2026-03-14T09:26:53.000Z",
                     *       "secret": "string"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpoint"];
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
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
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
                    /** @description On 409 idempotency_key_in_use: seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
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
    getWebhookEndpoint: {
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
                     *       "id": "string",
                     *       "object": "webhook_endpoint",
                     *       "url": "string",
                     *       "event_types": [
                     *         "string"
                     *       ],
                     *       "status": "enabled",
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "description": "string",
                     *       "headers": {},
                     *       "disabled_reason": "manual",
                     *       "previous_secret_expires_at": "2026-03-14T09:26:53.000Z",
                     *       "updated_at": "2026-03-14T09:26:53.000Z",
                     *       "secret": "string"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpoint"];
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
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
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header: {
                /** @description Required. A value you generate at random for each operation (e.g. a UUID) and send again, unchanged, on every retry of it. Scoped to your credential; kept 24 h by default. See docs/IDEMPOTENCY.md. */
                "Idempotency-Key": string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "string",
                 *       "event_types": [
                 *         "invoice.settled"
                 *       ],
                 *       "description": "string",
                 *       "headers": {}
                 *     }
                 */
                "application/json": {
                    description?: string | null;
                    event_types?: ("invoice.settled" | "payout.created" | "payout.paid" | "payout.failed" | "webhook_endpoint.disabled" | "*" | "audit.*" | "audit.account.created" | "audit.account.updated" | "audit.account.deleted" | "audit.client.created" | "audit.client.updated" | "audit.client.deleted" | "audit.client.secret_rotated" | "audit.client.tokens_revoked" | "audit.user.created" | "audit.user.updated" | "audit.user.deactivated" | "audit.user.reactivated" | "audit.user.deleted" | "audit.user.password_reset" | "audit.grant.revoked" | "audit.session.revoked" | "audit.scim_token.created" | "audit.scim_token.revoked" | "audit.role.created" | "audit.role.updated" | "audit.role.deleted" | "audit.signin.succeeded" | "audit.signin.failed" | "audit.consent.granted" | "audit.consent.denied" | "audit.consent.withdrawn" | "audit.token.revoked" | "audit.session.ended" | "audit.logout_delivery.retried" | "audit.grant.replay_revoked" | "audit.scim.user.created" | "audit.scim.user.replaced" | "audit.scim.user.patched" | "audit.scim.user.deactivated" | "audit.scim.user.deleted" | "audit.scim.group.created" | "audit.scim.group.replaced" | "audit.scim.group.patched" | "audit.scim.group.deleted" | "audit.invoice.created" | "audit.invoice.settled" | "audit.payout.created" | "audit.payout.paid" | "audit.payout.failed" | "audit.webhook_endpoint.created" | "audit.webhook_endpoint.updated" | "audit.webhook_endpoint.deleted" | "audit.webhook_endpoint.enabled" | "audit.webhook_endpoint.disabled" | "audit.webhook_endpoint.secret_rotated" | "audit.webhook_endpoint.recovered" | "audit.event.redelivered")[];
                    /** @description Headers added to every delivery (at most 20); names that carry the delivery's own meaning (signature, ids, framing) are refused. On update the whole set is replaced; {} removes them all. */
                    headers?: {
                        [key: string]: string;
                    };
                    url?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "string",
                     *       "object": "webhook_endpoint",
                     *       "url": "string",
                     *       "event_types": [
                     *         "string"
                     *       ],
                     *       "status": "enabled",
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "description": "string",
                     *       "headers": {},
                     *       "disabled_reason": "manual",
                     *       "previous_secret_expires_at": "2026-03-14T09:26:53.000Z",
                     *       "updated_at": "2026-03-14T09:26:53.000Z",
                     *       "secret": "string"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpoint"];
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
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
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
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
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
                    /** @description On 409 idempotency_key_in_use: seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
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
    deleteWebhookEndpoint: {
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
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
    listWebhookDeliveryAttempts: {
        parameters: {
            query?: {
                /** @description The next_cursor of the previous page, passed back unmodified; omitted on the first request */
                after?: string;
                event_id?: string;
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
            /** @description A page of delivery attempts */
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
                     *           "object": "webhook_delivery_attempt",
                     *           "event_id": "string",
                     *           "event_type": "string",
                     *           "outcome": "succeeded",
                     *           "response_status": 1,
                     *           "response_body": "string",
                     *           "error": "string",
                     *           "latency_ms": 1,
                     *           "attempted_at": "2026-03-14T09:26:53.000Z"
                     *         }
                     *       ],
                     *       "next_cursor": "string"
                     *     }
                     */
                    "application/json": {
                        data: components["schemas"]["WebhookDeliveryAttempt"][];
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
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
    disableWebhookEndpoint: {
        parameters: {
            query?: never;
            header: {
                /** @description Required. A value you generate at random for each operation (e.g. a UUID) and send again, unchanged, on every retry of it. Scoped to your credential; kept 24 h by default. See docs/IDEMPOTENCY.md. */
                "Idempotency-Key": string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description No members: the path names everything the action needs */
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "string",
                     *       "object": "webhook_endpoint",
                     *       "url": "string",
                     *       "event_types": [
                     *         "string"
                     *       ],
                     *       "status": "enabled",
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "description": "string",
                     *       "headers": {},
                     *       "disabled_reason": "manual",
                     *       "previous_secret_expires_at": "2026-03-14T09:26:53.000Z",
                     *       "updated_at": "2026-03-14T09:26:53.000Z",
                     *       "secret": "string"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpoint"];
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
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
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
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
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
                    /** @description On 409 idempotency_key_in_use: seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
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
    enableWebhookEndpoint: {
        parameters: {
            query?: never;
            header: {
                /** @description Required. A value you generate at random for each operation (e.g. a UUID) and send again, unchanged, on every retry of it. Scoped to your credential; kept 24 h by default. See docs/IDEMPOTENCY.md. */
                "Idempotency-Key": string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description No members: the path names everything the action needs */
        requestBody?: {
            content: {
                /** @example {} */
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "string",
                     *       "object": "webhook_endpoint",
                     *       "url": "string",
                     *       "event_types": [
                     *         "string"
                     *       ],
                     *       "status": "enabled",
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "description": "string",
                     *       "headers": {},
                     *       "disabled_reason": "manual",
                     *       "previous_secret_expires_at": "2026-03-14T09:26:53.000Z",
                     *       "updated_at": "2026-03-14T09:26:53.000Z",
                     *       "secret": "string"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpoint"];
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
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
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
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
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
                    /** @description On 409 idempotency_key_in_use: seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
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
    recoverWebhookDeliveries: {
        parameters: {
            query?: never;
            header: {
                /** @description Required. A value you generate at random for each operation (e.g. a UUID) and send again, unchanged, on every retry of it. Scoped to your credential; kept 24 h by default. See docs/IDEMPOTENCY.md. */
                "Idempotency-Key": string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "since": "2026-03-14T09:26:53.000Z"
                 *     }
                 */
                "application/json": {
                    /** Format: date-time */
                    since: string;
                };
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "string",
                     *       "endpoint_id": "string",
                     *       "since": "string",
                     *       "requeued": 1
                     *     }
                     */
                    "application/json": {
                        endpoint_id?: string;
                        object?: string;
                        requeued?: number;
                        since?: string;
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
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
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
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
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
                    /** @description On 409 idempotency_key_in_use: seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
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
    rotateWebhookEndpointSecret: {
        parameters: {
            query?: never;
            header: {
                /** @description Required. A value you generate at random for each operation (e.g. a UUID) and send again, unchanged, on every retry of it. Scoped to your credential; kept 24 h by default. See docs/IDEMPOTENCY.md. */
                "Idempotency-Key": string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "overlap_seconds": 1
                 *     }
                 */
                "application/json": {
                    overlap_seconds?: number;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "string",
                     *       "object": "webhook_endpoint",
                     *       "url": "string",
                     *       "event_types": [
                     *         "string"
                     *       ],
                     *       "status": "enabled",
                     *       "created_at": "2026-03-14T09:26:53.000Z",
                     *       "description": "string",
                     *       "headers": {},
                     *       "disabled_reason": "manual",
                     *       "previous_secret_expires_at": "2026-03-14T09:26:53.000Z",
                     *       "updated_at": "2026-03-14T09:26:53.000Z",
                     *       "secret": "string"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpoint"];
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
            /** @description Credential lacks the required scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "string",
                     *       "title": "string",
                     *       "status": 403,
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
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
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
                    /** @description Present on a replayed response: the operation was performed by an earlier request with the same key. */
                    "Idempotent-Replay"?: "true";
                    /** @description On 409 idempotency_key_in_use: seconds to wait before sending the same request again. */
                    "Retry-After"?: number;
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
}
