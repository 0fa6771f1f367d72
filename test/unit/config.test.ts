import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('config', () => {
  it('defaults: SQLite in ./data, public 8080, admin 8081 on loopback, issuer from the port', () => {
    const config = loadConfig({});
    assert.equal(config.dataDir, path.resolve('data'));
    assert.equal(config.databaseUrl, `sqlite:${path.resolve('data', 'gatehouse.db')}`);
    assert.equal(config.databaseKind, 'sqlite');
    assert.equal(config.port, 8080);
    assert.equal(config.adminPort, 8081);
    assert.equal(config.adminHost, '127.0.0.1');
    assert.equal(config.issuer, 'http://localhost:8080');
    assert.equal(config.authorizationCodeTtl, 30);
    assert.deepEqual(config.webhookRetrySchedule, [5, 300, 1800, 7200, 18000, 36000, 36000]);
  });

  it('HTTP limits: every listener has timeouts and a connection cap by default, in seconds', () => {
    const config = loadConfig({});
    assert.deepEqual(
      [config.httpRequestTimeout, config.httpHeadersTimeout, config.httpKeepAliveTimeout, config.httpMaxConnections],
      [30, 10, 72, 4096],
    );
  });

  it('postgres:// selects PostgreSQL; flags win over the environment', () => {
    const config = loadConfig({ GATEHOUSE_DATABASE_URL: 'sqlite:/tmp/x.db', GATEHOUSE_PORT: '9000' }, {
      '--database-url': 'postgres://postgres@127.0.0.1:5432/test',
    });
    assert.equal(config.databaseKind, 'postgres');
    assert.equal(config.port, 9000);
    assert.equal(config.issuer, 'http://localhost:9000');
  });

  const bad: Array<[Record<string, string>, string, RegExp]> = [
    [{ GATEHOUSE_PORT: 'eighty' }, 'GATEHOUSE_PORT', /whole number from 0 to 65535/],
    [{ GATEHOUSE_PORT: '70000' }, 'GATEHOUSE_PORT', /whole number/],
    [{ GATEHOUSE_DATABASE_URL: 'mysql://x' }, 'GATEHOUSE_DATABASE_URL', /sqlite:<path> or postgres/],
    [{ GATEHOUSE_DATABASE_URL: 'postgres://db/gatehouse?prepare=no' }, 'GATEHOUSE_DATABASE_URL', /prepare=on or prepare=off/],
    [{ GATEHOUSE_DATABASE_URL: 'postgres://db/gatehouse?shema=tenant_a' }, 'GATEHOUSE_DATABASE_URL', /unknown parameter shema in the URL \(it takes schema, prepare, host, /],
    [{ GATEHOUSE_DATABASE_URL: 'postgres://db/gatehouse?schema=Bad-Name' }, 'GATEHOUSE_DATABASE_URL', /schema=Bad-Name: expected a lower-case SQL identifier/],
    [{ GATEHOUSE_ISSUER: 'not a url' }, 'GATEHOUSE_ISSUER', /absolute http/],
    [{ GATEHOUSE_ADMIN_TOKEN: 'short' }, 'GATEHOUSE_ADMIN_TOKEN', /at least 16/],
    // A bound the request's own would always cut short first.
    [{ GATEHOUSE_HTTP_HEADERS_TIMEOUT: '60' }, 'GATEHOUSE_HTTP_HEADERS_TIMEOUT', /must be at most the request timeout, GATEHOUSE_HTTP_REQUEST_TIMEOUT \(30 s\)/],
    // No Authorization header could carry it (RFC 6750 b64token): refused, not a lock-out.
    [{ GATEHOUSE_ADMIN_TOKEN: 'my admin token: correct horse!' }, 'GATEHOUSE_ADMIN_TOKEN', /may hold only A-Z a-z 0-9 - \. _ ~ \+ \/ \(and = at the end\)/],
    [{ GATEHOUSE_ADMIN_TOKEN: 'new-admin-token-0123456789,short' }, 'GATEHOUSE_ADMIN_TOKEN', /at least 16 characters \(each, when several are given comma-separated\)/],
    [{ GATEHOUSE_AUTHORIZATION_CODE_TTL: '60' }, 'GATEHOUSE_AUTHORIZATION_CODE_TTL', /1 to 59/],
    [{ GATEHOUSE_RATE_LIMITS: 'maybe' }, 'GATEHOUSE_RATE_LIMITS', /on or off/],
    [{ GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '1,x' }, 'GATEHOUSE_WEBHOOK_RETRY_SCHEDULE', /comma-separated/],
    [{ GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.1' }, 'GATEHOUSE_WEBHOOK_ALLOW_NETWORKS', /CIDR/],
    [{ GATEHOUSE_REDIS_URL: 'http://x' }, 'GATEHOUSE_REDIS_URL', /redis:\/\//],
    [{ GATEHOUSE_HTTP_REQUEST_TIMEOUT: '0' }, 'GATEHOUSE_HTTP_REQUEST_TIMEOUT', /whole number from 1 to 3600/],
    [{ GATEHOUSE_HTTP_MAX_CONNECTIONS: '0' }, 'GATEHOUSE_HTTP_MAX_CONNECTIONS', /whole number from 1/],
  ];
  for (const [env, name, why] of bad) {
    it(`a bad ${name} names the setting and the problem`, () => {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError);
          assert.equal(error.setting, name);
          assert.match(error.message, new RegExp(`^invalid setting ${name}: `));
          assert.match(error.message, why);
          assert.doesNotMatch(error.message, /\n/);
          return true;
        },
      );
    });
  }

  it('GATEHOUSE_WEBHOOK_ALLOW_NETWORKS takes IPv4 (dotted quad) and IPv6 CIDR blocks, nothing a parser could read two ways', () => {
    const config = loadConfig({ GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8, 10.1.0.0/16,fd00::/8,64:ff9b::/96' });
    assert.deepEqual(config.webhookAllowNetworks, ['127.0.0.0/8', '10.1.0.0/16', 'fd00::/8', '64:ff9b::/96']);
    for (const bad of ['10.0.0.0/8,300.0.0.0/8', '10.0.0.0/33', '127.1/8', '010.0.0.0/8', '0x7f.0.0.1/8', 'fd00::/129', 'fe80::%eth0/64']) {
      assert.throws(() => loadConfig({ GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: bad }), (error: unknown) => {
        assert.ok(error instanceof ConfigError, bad);
        assert.equal(error.setting, 'GATEHOUSE_WEBHOOK_ALLOW_NETWORKS');
        assert.match(error.message, /is not a CIDR block/, bad);
        return true;
      });
    }
  });

  it('a request timeout below the default headers timeout takes the headers timeout down with it', () => {
    const config = loadConfig({ GATEHOUSE_HTTP_REQUEST_TIMEOUT: '5' });
    assert.equal(config.httpHeadersTimeout, 5);
    assert.equal(loadConfig({}).httpHeadersTimeout, 10);
  });

  it('a refused secret is not shown, only its length; a refused URL is shown without its password', () => {
    const secrets: Array<[Record<string, string>, string, string]> = [
      [{ GATEHOUSE_SECRETS_KEY: 'c2VjcmV0LWtleS1vZi10aGlydHktb25lLWJ5dGVzLg==' }, 'GATEHOUSE_SECRETS_KEY', 'c2VjcmV0LWtleS1vZi10aGlydHktb25lLWJ5dGVzLg=='],
      [{ GATEHOUSE_ADMIN_TOKEN: 'fifteen-secret!' }, 'GATEHOUSE_ADMIN_TOKEN', 'fifteen-secret!'],
      [{ GATEHOUSE_CURSOR_KEYS: 'k1:too-short-secret' }, 'GATEHOUSE_CURSOR_KEYS', 'too-short-secret'],
    ];
    for (const [env, name, secret] of secrets) {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError);
          assert.equal(error.setting, name);
          assert.ok(!error.message.includes(secret), error.message);
          assert.match(error.message, new RegExp(`\\(got ${Object.values(env)[0]!.length} characters, not shown\\)$`));
          return true;
        },
      );
    }
    const urls: Array<[Record<string, string>, string]> = [
      [{ GATEHOUSE_DATABASE_URL: 'postgres://app:S3cretPw@db:5432/gh?prepare=no' }, '"postgres://app:…@db:5432/gh?prepare=no"'],
      [{ GATEHOUSE_REDIS_URL: 'http://:S3cretPw@cache:6379' }, '"http://:…@cache:6379"'],
    ];
    for (const [env, shown] of urls) {
      assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && error.message.endsWith(`(got ${shown})`) && !error.message.includes('S3cretPw'));
    }
  });

  it('a bad flag is named by its flag', () => {
    assert.throws(() => loadConfig({}, { '--port': '-1' }), /invalid setting --port/);
  });
});
