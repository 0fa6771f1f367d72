/**
 * Constant-time comparison of secrets, held three ways:
 *
 * 1. The source: no `===`/`!==` on a value named like a secret; secrets stored as digests are
 *    looked up by the digest of what was presented (never by the raw value); `timingSafeEqual`
 *    appears only in the shared helpers, which fix lengths first; and each site that compares a
 *    presented secret with a known one calls them (`safeEqual`, `matchesDigest`).
 * 2. The helpers: equal, unequal of the same length, of another length, empty, or against a
 *    malformed digest, they answer a boolean and never throw (a throw would be a 500 and a
 *    length oracle).
 * 3. Each comparison site through its public API, with a wrong value of the right length and
 *    values of other lengths: refused in the protocol's shape, never a 5xx.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { databaseTargets } from '../helpers/databases.ts';
import { TEST_ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/test-app.ts';
import { basic, postForm } from '../oauth/helpers.ts';
import { matchesDigest, safeEqual, sha256Hex } from '../../src/platform/crypto.ts';
import { REDIRECT, VERIFIER, codeFlow, createTenant, type Tenant } from './flows.ts';

const SECRETISH = /(secret|digest|token|csrf|signature|password|verifier|challenge|hmac|\bmac\b|assertion|\bcode\b)/i;
/** Comparisons with secret-sounding names that compare no secret (a constant, a boolean). */
const NOT_SECRETS = [
  /type !== JWT_BEARER_ASSERTION/, // the assertion *type*, a public URN
  /usesCode !== responseTypes\.includes\('code'\)/, // booleans about registration metadata
];

function sourceFiles(): Array<{ file: string; text: string }> {
  return fs
    .readdirSync('src', { recursive: true })
    .map((f) => path.join('src', String(f)))
    .filter((f) => f.endsWith('.ts'))
    .map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));
}

/** The equality comparisons in `text` whose operands look like secrets. */
function comparisonsIn(file: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (/^\s*(\*|\/\/)/.test(line)) return;
    for (const m of line.matchAll(/([\w.$\])'"`?!]+(?:\([^()]*\))?)\s*(===|!==|==|!=)\s*([\w.$'"`[(]+(?:\([^()]*\))?)/g)) {
      const operands = [m[1]!, m[3]!];
      if (operands.some((o) => /^(undefined|null|true|false|\d+|'[^']*'|"[^"]*"|`[^`]*`)$/.test(o))) continue;
      if (operands.some((o) => /\.length$|typeof|\.size$/.test(o))) continue;
      if (!operands.some((o) => SECRETISH.test(o))) continue;
      if (NOT_SECRETS.some((allowed) => allowed.test(line))) continue;
      found.push(`${file}:${i + 1}: ${line.trim()}`);
    }
  });
  return found;
}

describe('security: constant-time comparisons in the source', () => {
  it('no secret is compared with === or !== anywhere in src/', () => {
    assert.deepEqual(sourceFiles().flatMap(({ file, text }) => comparisonsIn(file, text)), []);
  });

  it('the scan itself catches a plain comparison of a secret (so an empty result means something)', () => {
    const samples = [
      'if (given === client.secretDigest) return true;',
      'return sha256Hex(token) !== row.token_digest;',
      "if (body.csrf_token == cookies['gh_csrf']) ok();",
      'const ok = signature === expectedSignature;',
    ];
    for (const sample of samples) assert.equal(comparisonsIn('sample.ts', sample).length, 1, sample);
    assert.deepEqual(comparisonsIn('sample.ts', 'if (row.client_id !== client.id) return;'), []);
  });

  it('secrets kept as digests are looked up by the digest of the presented value, never by the raw value', () => {
    const lookups: string[] = [];
    for (const { file, text } of sourceFiles()) {
      for (const m of text.matchAll(/\.where\(\s*'([\w.]*(?:_digest|token|secret|code)[\w]*)'\s*,\s*'='\s*,\s*([^)]+\)?)/g)) {
        // A lease token is a compare-and-set value of the idempotency claim, not a credential.
        if (m[1] === 'lease_token') continue;
        lookups.push(`${file}: ${m[1]} = ${m[2]}`);
        assert.match(m[1]!, /_digest$/, `${file}: a secret column looked up raw: ${m[0]}`);
        assert.match(m[2]!, /sha256Hex\(|Digest\b|digest\b/, `${file}: ${m[1]} compared with something that is not a digest: ${m[0]}`);
      }
    }
    assert.ok(lookups.length >= 5, `expected the token, code, refresh, session and SCIM lookups, found ${lookups.join('; ')}`);
  });

  it('node:crypto timingSafeEqual is used only by the shared helpers, which fix both lengths first', () => {
    const users = sourceFiles().filter(({ text }) => /timingSafeEqual\(/.test(text)).map(({ file }) => file);
    assert.deepEqual(users, [path.join('src', 'platform', 'crypto.ts')]);
  });

  it('each comparison site calls the shared constant-time helper', () => {
    const sites: Array<[string, RegExp, string]> = [
      ['src/oauth/client-auth.ts', /matchesDigest\(basic\.secret, client\.secretDigest\)/, 'client secret (HTTP Basic)'],
      ['src/oauth/client-auth.ts', /matchesDigest\(secret, client\.secretDigest\)/, 'client secret (form body)'],
      ['src/oauth/token.ts', /safeEqual\(sha256Base64Url\(verifier\), row\.code_challenge\)/, 'PKCE code_verifier'],
      ['src/oauth/authorize-routes.ts', /safeEqual\(fromForm, fromCookie\)/, 'CSRF token'],
      ['src/admin/admin-token.ts', /safeEqual\(given, token\)/, 'configured admin token (each, during a rotation)'],
      ['src/admin/admin-token.ts', /matchesDigest\(given, digest\)/, 'generated admin token'],
      ['src/oauth/token-sealing.ts', /safeEqual\(token\.slice\(dot \+ 1\), mac\(key\.key, body\)\)/, 'sealed token MAC'],
    ];
    for (const [file, call, what] of sites) assert.match(fs.readFileSync(file, 'utf8'), call, `${what} in ${file}`);
  });
});

describe('security: the constant-time helpers never throw and never accept a near miss', () => {
  it('safeEqual and matchesDigest: equal, same length, other lengths, empty, malformed digests', () => {
    const secret = 'gh_s3cret-value-0123456789abcdef';
    const flipped = `${secret.slice(0, -1)}0`;
    assert.equal(safeEqual(secret, secret), true);
    for (const given of [flipped, secret.slice(0, -1), `${secret}x`, '', secret.toUpperCase(), `${secret}\u0000`]) {
      assert.equal(safeEqual(given, secret), false, JSON.stringify(given));
      assert.equal(matchesDigest(given, sha256Hex(secret)), false, JSON.stringify(given));
    }
    assert.equal(matchesDigest(secret, sha256Hex(secret)), true);
    for (const digest of ['', 'zz', sha256Hex(secret).slice(0, 63), `${sha256Hex(secret)}00`]) assert.equal(matchesDigest(secret, digest), false, digest);
  });
});

for (const target of databaseTargets()) {
  describe(`security: every comparison site refuses wrong values of the right and of other lengths (${target.kind})`, () => {
    let t: TestApp;
    let tenant: Tenant;
    before(async () => {
      t = await startTestApp(target, { env: { GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8' } });
      tenant = await createTenant(t, 'Timing');
    });
    after(() => t.close());

    /** The same length with one character changed, shorter, longer, empty. */
    const nearMisses = (value: string) => [`${value.slice(0, -1)}${value.endsWith('A') ? 'B' : 'A'}`, `${value.slice(0, 1) === 'x' ? 'y' : 'x'}${value.slice(1)}`, value.slice(0, -1), `${value}A`, value.slice(0, 8)];

    it('client secrets (Basic and form body) → 401/400 invalid_client', async () => {
      for (const wrong of [...nearMisses(tenant.client.client_secret), '']) {
        const viaBasic = await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials' }, { authorization: basic(tenant.client.client_id, wrong) });
        assert.equal(viaBasic.status, 401, wrong);
        assert.equal(viaBasic.body.error, 'invalid_client');
        const viaBody = await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials', client_id: tenant.client.client_id, client_secret: wrong });
        assert.equal(viaBody.body.error, 'invalid_client', wrong);
      }
    });

    it('PKCE code_verifier → invalid_grant, and the right verifier still redeems a fresh code', async () => {
      for (const wrong of nearMisses(VERIFIER)) {
        const flowCode = await freshCode();
        const redeemed = await postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code: flowCode, redirect_uri: REDIRECT, code_verifier: wrong }, { authorization: basic(tenant.client.client_id, tenant.client.client_secret) });
        assert.equal(redeemed.status, 400, wrong);
        assert.equal(redeemed.body.error, 'invalid_grant');
      }
    });

    async function freshCode(): Promise<string> {
      const { Browser, authorizePath } = await import('../oauth/helpers.ts');
      const { sha256Base64Url } = await import('../../src/platform/crypto.ts');
      const browser = new Browser(t.publicUrl);
      browser.cookies.set('gh_session', tenant.session);
      const response = await browser.get(authorizePath({ response_type: 'code', client_id: tenant.client.client_id, redirect_uri: REDIRECT, scope: 'invoices:read', state: 's', code_challenge: sha256Base64Url(VERIFIER), code_challenge_method: 'S256' }));
      assert.equal(response.status, 302, response.html);
      return new URL(response.headers.get('location')!).searchParams.get('code')!;
    }

    it('access tokens (stored and sealed), SCIM tokens and the admin token → 401', async () => {
      for (const token of [tenant.token, tenant.userTokens.access_token, tenant.clientToken]) {
        for (const wrong of nearMisses(token)) {
          const response = await fetch(`${t.publicUrl}/v1/invoices`, { headers: { authorization: `Bearer ${wrong}` } });
          assert.equal(response.status, 401, wrong);
          assert.equal(((await response.json()) as { code: string }).code, 'invalid_token');
        }
      }
      // Another spelling of the same MAC bytes (base64url's unused low bits) is another token: refused.
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const last = tenant.clientToken.at(-1)!;
      const respelled = tenant.clientToken.slice(0, -1) + alphabet[alphabet.indexOf(last) ^ 1];
      assert.equal((await fetch(`${t.publicUrl}/v1/invoices`, { headers: { authorization: `Bearer ${respelled}` } })).status, 401, 'a respelled sealed token');
      assert.equal((await fetch(`${t.publicUrl}/v1/invoices`, { headers: { authorization: `Bearer ${tenant.clientToken}` } })).status, 200);
      for (const wrong of nearMisses(tenant.scimToken)) {
        const response = await fetch(`${t.publicUrl}/scim/v2/Users`, { headers: { authorization: `Bearer ${wrong}` } });
        assert.equal(response.status, 401, wrong);
        assert.equal(((await response.json()) as { status: string }).status, '401');
      }
      for (const wrong of nearMisses(TEST_ADMIN_TOKEN)) {
        const response = await fetch(`${t.adminUrl}/admin/v1/accounts`, { headers: { authorization: `Bearer ${wrong}` } });
        assert.equal(response.status, 401, wrong);
      }
    });

    it('refresh tokens and authorization codes → invalid_grant', async () => {
      const auth = { authorization: basic(tenant.client.client_id, tenant.client.client_secret) };
      const fresh = await codeFlow(t, tenant.client, tenant.userName, tenant.password);
      for (const wrong of nearMisses(fresh.refresh_token)) {
        const refreshed = await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: wrong }, auth);
        assert.equal(refreshed.body.error, 'invalid_grant', wrong);
      }
      const code = await freshCode();
      for (const wrong of nearMisses(code)) {
        const redeemed = await postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code: wrong, redirect_uri: REDIRECT, code_verifier: VERIFIER }, auth);
        assert.equal(redeemed.body.error, 'invalid_grant', wrong);
      }
      // The genuine ones still work: the near misses consumed nothing.
      assert.equal((await postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER }, auth)).status, 200);
      assert.equal((await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: fresh.refresh_token }, auth)).status, 200);
    });
  });
}
