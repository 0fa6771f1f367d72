/**
 * What the API document says of the authorization endpoint and its two forms, and of the end-session
 * endpoint (logout) and its confirmation form. The handlers read
 * their parameters themselves (errors go back to the client as a redirect, or to the person as
 * a page, never as JSON), so this is documentation only (documentedOnly), not validation.
 */
const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' }, example: '<!doctype html><html lang="en">…</html>' } } });

const location = (description: string) => ({
  description,
  headers: { Location: { type: 'string', format: 'uri', description: 'The redirect URI with the answer in its query' } },
});

const AUTHORIZATION_PARAMETERS = {
  response_type: { type: 'string', enum: ['code'], description: 'Always code (RFC 6749 §4.1.1)' },
  client_id: { type: 'string', description: 'The client making the request', examples: ['cli_7Rk2pV9sQ1mZ4wX8bN3c'] },
  redirect_uri: { type: 'string', format: 'uri', description: 'One of the client’s registered redirect URIs, exactly' },
  scope: { type: 'string', description: 'Space-separated scopes', examples: ['invoices:read payouts:read'] },
  state: { type: 'string', description: 'Opaque value returned unchanged in the redirect' },
  code_challenge: { type: 'string', description: 'PKCE (RFC 7636): BASE64URL(SHA256(code_verifier)); required' },
  code_challenge_method: { type: 'string', enum: ['S256'] },
  prompt: { type: 'string', description: 'none, login or consent (OpenID Connect Core §3.1.2.1)' },
  response_mode: { type: 'string', enum: ['query'], description: 'query, the default and the only mode: the answer is in the redirect URI’s query' },
} as const;

const REDIRECTED =
  'Redirect to redirect_uri with code, state and iss (RFC 9207); or with error (invalid_request, unauthorized_client, access_denied, unsupported_response_type, invalid_scope, login_required, consent_required, server_error), error_description, state and iss';
const NO_REDIRECT = 'Unknown client, or a redirect URI that is not registered: an error page, never a redirect (RFC 6749 §4.1.2.1)';

export const AUTHORIZE_DOCS = {
  querystring: { type: 'object', required: ['response_type', 'client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method'], properties: AUTHORIZATION_PARAMETERS },
  response: {
    200: html('The sign-in page, or the consent page for a signed-in person'),
    302: location(REDIRECTED),
    400: html(NO_REDIRECT),
  },
};

const form = (properties: Record<string, unknown>, required: string[]) => ({
  consumes: ['application/x-www-form-urlencoded'],
  body: { type: 'object', required, properties: { ...AUTHORIZATION_PARAMETERS, ...properties } },
});

export const AUTHORIZE_POST_DOCS = {
  ...form({}, [...AUTHORIZE_DOCS.querystring.required]),
  response: {
    200: AUTHORIZE_DOCS.response[200],
    303: location(REDIRECTED),
    400: html(NO_REDIRECT),
  },
};

export const SIGN_IN_DOCS = {
  ...form(
    {
      username: { type: 'string', examples: ['ada'] },
      password: { type: 'string', format: 'password' },
      csrf_token: { type: 'string', description: 'From the sign-in page (double-submit cookie)' },
    },
    ['username', 'password', 'csrf_token', 'client_id', 'redirect_uri'],
  ),
  response: {
    200: html('The consent page'),
    303: location(REDIRECTED),
    400: html(NO_REDIRECT),
    401: html('Wrong username or password: the sign-in page again'),
    403: html('The form expired (CSRF token missing or stale)'),
    429: html('Too many sign-in attempts for this name or address; Retry-After says when to try again'),
  },
};

export const CONSENT_DOCS = {
  ...form(
    {
      decision: { type: 'string', enum: ['allow', 'deny'] },
      csrf_token: { type: 'string', description: 'From the consent page (bound to the session)' },
    },
    ['decision', 'csrf_token', 'client_id', 'redirect_uri'],
  ),
  response: {
    200: html('The sign-in page, when the session ended meanwhile'),
    303: location(REDIRECTED),
    400: html(NO_REDIRECT),
    403: html('The form expired (CSRF token missing or stale)'),
  },
};

export const SWITCH_DOCS = {
  ...form({ csrf_token: { type: 'string', description: 'From the sign-in or consent page (bound to the session)' } }, ['csrf_token', 'client_id', 'redirect_uri']),
  response: {
    303: location('/authorize with the same authorization request, now without a session: the sign-in page'),
    400: html(NO_REDIRECT),
    403: html('The form expired (its token does not match the session)'),
  },
};

const LOGOUT_PARAMETERS = {
  id_token_hint: { type: 'string', description: 'An ID token this server issued to the client (expired is fine); names the person and session to sign out' },
  client_id: { type: 'string', description: 'The client asking; must be an audience of id_token_hint when both are given', examples: ['cli_7Rk2pV9sQ1mZ4wX8bN3c'] },
  post_logout_redirect_uri: { type: 'string', format: 'uri', description: 'One of the client’s registered post-logout redirect URIs, exactly' },
  state: { type: 'string', description: 'Opaque value returned unchanged in the redirect' },
} as const;

const LOGOUT_ANSWERS = {
  200: html('Signed out; or, without an id_token_hint naming the person signed in, a page asking them to confirm'),
  303: {
    description: 'Signed out: redirect to post_logout_redirect_uri with state',
    headers: { Location: { type: 'string', format: 'uri', description: 'The post-logout redirect URI with state in its query' } },
  },
  400: html('A parameter given twice, an id_token_hint this server did not issue, or a redirect URI not registered: an error page, never a redirect'),
};

export const LOGOUT_DOCS = {
  query: { querystring: { type: 'object', properties: LOGOUT_PARAMETERS }, response: LOGOUT_ANSWERS },
  form: { consumes: ['application/x-www-form-urlencoded'], body: { type: 'object', properties: LOGOUT_PARAMETERS }, response: LOGOUT_ANSWERS },
  confirm: {
    consumes: ['application/x-www-form-urlencoded'],
    body: {
      type: 'object',
      required: ['decision', 'csrf_token'],
      properties: {
        ...LOGOUT_PARAMETERS,
        decision: { type: 'string', enum: ['sign_out', 'stay'], description: 'sign_out ends the session; anything else keeps it' },
        csrf_token: { type: 'string', description: 'From the confirmation page (bound to the session)' },
      },
    },
    response: { ...LOGOUT_ANSWERS, 200: html('Signed out, or still signed in'), 403: html('The form expired (CSRF token missing or stale)') },
  },
};
