/**
 * RFC 6750 on a resource route: the API's bearer guard (`requireBearer`) with tokens from the real
 * token endpoint, on its own listener so that the route exists only for this test.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { databaseTargets } from '../helpers/databases.ts';
import { json } from '../helpers/http.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount, mintAccessToken } from '../helpers/fixtures.ts';
import { statementsSentDuring } from '../helpers/sent-statements.ts';
import { createHttpServer, httpLimitsOf } from '../../src/platform/http/server.ts';
import { principalOf, requireBearer } from '../../src/platform/auth.ts';
import { basic, createUser, postForm, registerClient } from './helpers.ts';

for (const target of databaseTargets()) {
  describe(`RFC 6750 bearer tokens on resource routes (${target.kind})`, () => {
    let t: TestApp;
    let api: FastifyInstance;
    let apiUrl: string;
    let accountId: string;
    let client: { client_id: string; client_secret: string };

    before(async () => {
      t = await startTestApp(target);
      api = createHttpServer({ logger: pino({ level: 'silent' }), bodyLimit: 1024 * 1024, issuer: t.publicUrl, limits: httpLimitsOf(t.config) });
      api.get('/v1/things', { preHandler: requireBearer(t.gatehouse.services.accessTokens, ['invoices:read']) }, async (request) => {
        const p = principalOf(request);
        return { account: p.accountId, client: p.clientId };
      });
      apiUrl = await api.listen({ host: '127.0.0.1', port: 0 });
      accountId = await createAccount(t);
      client = await registerClient(t, accountId, { grant_types: ['client_credentials'], scope: 'invoices:read ledger:read' });
    });
    after(async () => {
      await api.close();
      await t.close();
    });

    const token = async (scope: string) =>
      (await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials', scope }, { authorization: basic(client.client_id, client.client_secret) })).body.access_token as string;
    const call = (bearer?: string) => fetch(`${apiUrl}/v1/things`, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });

    it('a token with the scope → 200 as its account and client', async () => {
      const response = await call(await token('invoices:read'));
      assert.equal(response.status, 200);
      assert.deepEqual(await json(response), { account: accountId, client: client.client_id });
    });

    it('§3: no token → 401 with a bare Bearer challenge; a bad, tampered or expired token → 401 invalid_token', async () => {
      const none = await call();
      assert.equal(none.status, 401);
      assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="gatehouse"');
      const good = await token('invoices:read');
      const tampered = good.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
      // Flipping only the unused low bits of the last base64url character decodes to the same MAC.
      const lastBitFlipped = good.replace(/.$/, (c) => {
        const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
        return alphabet[alphabet.indexOf(c) ^ 1]!;
      });
      for (const bad of ['gh_at_nonsense', tampered, lastBitFlipped]) {
        const response = await call(bad);
        assert.equal(response.status, 401);
        assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer realm="gatehouse", error="invalid_token"/);
        assert.equal((await json(response)).code, 'invalid_token');
      }
      t.clock.advance(3601_000);
      assert.equal((await call(good)).status, 401, 'expired');
    });

    it('§3.1: a token without the scope → 403 insufficient_scope naming the scope', async () => {
      const response = await call(await token('ledger:read'));
      assert.equal(response.status, 403);
      assert.match(response.headers.get('www-authenticate') ?? '', /error="insufficient_scope".*scope="invoices:read"/);
      assert.equal((await json(response)).code, 'insufficient_scope');
    });

    it('revocation and client deletion take effect on the very next request', async () => {
      const revoked = await token('invoices:read');
      assert.equal((await call(revoked)).status, 200);
      await postForm(`${t.publicUrl}/revoke`, { token: revoked }, { authorization: basic(client.client_id, client.client_secret) });
      assert.equal((await call(revoked)).status, 401);
      const kept = await token('invoices:read');
      assert.equal((await call(kept)).status, 200);
      assert.equal((await t.admin('DELETE', `/admin/v1/accounts/${accountId}/clients/${client.client_id}`)).status, 204);
      assert.equal((await call(kept)).status, 401);
    });

    it('requests that arrive together: each token judged on its own, live ones as their own account and client, one statement per kind of lookup on PostgreSQL', async () => {
      const other = await createAccount(t, 'Other account');
      const mine = await registerClient(t, other, { grant_types: ['client_credentials'], scope: 'invoices:read' });
      const doomed = await registerClient(t, other, { grant_types: ['client_credentials'], scope: 'invoices:read' });
      const sealedBy = async (c: { client_id: string; client_secret: string }) =>
        (await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials', scope: 'invoices:read' }, { authorization: basic(c.client_id, c.client_secret) })).body.access_token as string;
      const person = await createUser(t, other, 'grace');
      const leaving = await createUser(t, other, 'alan');
      const tokens = {
        sealed: await sealedBy(mine),
        sealedRevoked: await sealedBy(mine),
        sealedOfDeletedClient: await sealedBy(doomed),
        stored: await mintAccessToken(t, { accountId: other, clientId: mine.client_id, userId: person.id as string, scopes: ['invoices:read'] }),
        storedRevoked: await mintAccessToken(t, { accountId: other, clientId: mine.client_id, userId: person.id as string, scopes: ['invoices:read'] }),
        storedOfDeactivated: await mintAccessToken(t, { accountId: other, clientId: mine.client_id, userId: leaving.id as string, scopes: ['invoices:read'] }),
        unknown: 'gh_at_' + 'A'.repeat(43),
      };
      await postForm(`${t.publicUrl}/revoke`, { token: tokens.sealedRevoked }, { authorization: basic(mine.client_id, mine.client_secret) });
      await postForm(`${t.publicUrl}/revoke`, { token: tokens.storedRevoked }, { authorization: basic(mine.client_id, mine.client_secret) });
      assert.equal((await t.admin('DELETE', `/admin/v1/accounts/${other}/clients/${doomed.client_id}`)).status, 204);
      assert.equal((await t.admin('POST', `/admin/v1/accounts/${other}/users/${leaving.id as string}/deactivate`)).status, 200);

      const live = new Set(['sealed', 'stored']);
      const names = Object.keys(tokens) as Array<keyof typeof tokens>;
      // Each token three times, interleaved, all sent at once.
      const sent = [...names, ...names, ...names];
      const answers = await Promise.all(sent.map(async (name) => ({ name, response: await call(tokens[name]) })));
      for (const { name, response } of answers) {
        assert.equal(response.status, live.has(name) ? 200 : 401, name);
        if (live.has(name)) assert.deepEqual(await json(response), { account: other, client: mine.client_id });
        else assert.equal((await json(response)).code, 'invalid_token');
      }

      const { accessTokens } = t.gatehouse.services;
      let principals: Array<{ accountId: string; userId: string | null } | undefined> = [];
      const statements = await statementsSentDuring(async () => {
        principals = await Promise.all(sent.map((name) => accessTokens.verify(tokens[name])));
      });
      assert.deepEqual(
        principals.map((p) => p && { accountId: p.accountId, userId: p.userId }),
        sent.map((name) => (name === 'sealed' ? { accountId: other, userId: null } : name === 'stored' ? { accountId: other, userId: person.id } : undefined)),
      );
      if (target.kind === 'postgres') {
        // Seven kinds of token three times: one statement for the stored tokens' digests, one for the sealed tokens' clients.
        // Counted by table: the app's background work (the audit sealer) may send statements meanwhile.
        const lookups = statements.filter((s) => /"access_tokens"|oauth_clients/.test(s.text));
        assert.equal(lookups.length, 2, lookups.map((s) => s.text).join('\n'));
      }
    });
  });
}
