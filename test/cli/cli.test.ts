/**
 * The `gatehouse` command as an operator uses it: a real process, real signals.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { secretsKeyEnvFor, databaseTargets } from '../helpers/databases.ts';
import { until } from '../helpers/until.ts';

const BIN = path.resolve('bin/gatehouse.js');

function run(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 });
}

/** The environment variables a --help text lists as settings, in order. */
function settingsIn(help: string): string[] {
  return [...help.matchAll(/^ {2}--[a-z-]+, (GATEHOUSE_[A-Z_]+) /gm)].map((m) => m[1]!);
}


describe('gatehouse CLI', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('--help lists the commands; <command> --help lists the settings', () => {
    const top = run(['--help']);
    assert.equal(top.status, 0);
    assert.match(top.stdout, /Usage: gatehouse <command>/);
    assert.match(top.stdout, /serve/);
    assert.match(top.stdout, /migrate/);
    const serve = run(['serve', '--help']);
    assert.equal(serve.status, 0);
    assert.match(serve.stdout, /GATEHOUSE_DATABASE_URL/);
    assert.match(serve.stdout, /--admin-port, GATEHOUSE_ADMIN_PORT/);
  });

  it('--version and -v print the version from package.json, before or after a command', () => {
    const { version } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };
    for (const args of [['--version'], ['-v'], ['serve', '--version']]) {
      const r = run(args);
      assert.equal(r.status, 0, args.join(' '));
      assert.equal(r.stdout, `gatehouse ${version}\n`);
      assert.equal(r.stderr, '');
    }
  });

  it('each command\'s --help lists the settings it reads, each with its default, and no others', () => {
    const migrate = run(['migrate', '--help']);
    assert.equal(migrate.status, 0);
    assert.match(migrate.stdout, /--database-url, GATEHOUSE_DATABASE_URL .*\[default: sqlite:<data dir>\/gatehouse\.db\]/);
    assert.match(migrate.stdout, /--data-dir, GATEHOUSE_DATA_DIR .*\[default: \.\/data\]/);
    // Where the database is and how it is used (pool, statement and acquire timeouts): as every command opening it.
    assert.equal(settingsIn(migrate.stdout).length, 5, migrate.stdout);
    assert.doesNotMatch(migrate.stdout, /GATEHOUSE_PORT|GATEHOUSE_ADMIN_PORT/);

    const serve = run(['serve', '--help']);
    assert.match(serve.stdout, /--port, GATEHOUSE_PORT .*\[default: 8080\]/);
    assert.match(serve.stdout, /--shutdown-grace, GATEHOUSE_SHUTDOWN_GRACE .*\[default: 5\]/);
    assert.match(serve.stdout, /--shutdown-timeout, GATEHOUSE_SHUTDOWN_TIMEOUT .*\[default: 20\]/);
    assert.match(serve.stdout, /--rate-limit-api, GATEHOUSE_RATE_LIMIT_API .*\[default: 100\/1\]/);
    assert.match(serve.stdout, /--in-process-workers, GATEHOUSE_IN_PROCESS_WORKERS .*\[default: on\]/);
    assert.doesNotMatch(serve.stdout, /GATEHOUSE_WORKER_METRICS_PORT/);

    const worker = run(['worker', '--help']);
    assert.match(worker.stdout, /--worker-metrics-port, GATEHOUSE_WORKER_METRICS_PORT .*\[default: unset\]/);
    assert.match(worker.stdout, /--shutdown-timeout, GATEHOUSE_SHUTDOWN_TIMEOUT .*\[default: 20\]/);
    assert.doesNotMatch(worker.stdout, /GATEHOUSE_PORT|GATEHOUSE_SHUTDOWN_GRACE|GATEHOUSE_RATE_LIMIT_API/);
    // It seals and sweeps the audit trail, and serves its metrics port with the HTTP limits: it reads those settings too.
    for (const setting of [
      'GATEHOUSE_AUDIT_RETENTION',
      'GATEHOUSE_AUDIT_CHECKPOINT_INTERVAL',
      'GATEHOUSE_CURSOR_KEYS',
      'GATEHOUSE_CURSOR_TTL',
      'GATEHOUSE_ACCESS_TOKEN_TTL',
      'GATEHOUSE_HTTP_REQUEST_TIMEOUT',
      'GATEHOUSE_HTTP_MAX_CONNECTIONS',
    ]) {
      assert.ok(settingsIn(worker.stdout).includes(setting), `worker --help lists ${setting}`);
    }
    const retention = run(['worker', '--audit-retention', 'soon']);
    assert.equal(retention.status, 2);
    assert.equal(retention.stderr, 'gatehouse: invalid setting --audit-retention: expected a whole number from 1 to 36500 (got "soon")\n');

    // `audit` reads nothing itself: its help names the subcommands, with no empty settings section.
    const audit = run(['audit', '--help']);
    assert.equal(audit.status, 0);
    assert.match(audit.stdout, /gatehouse audit export --help/);
    assert.doesNotMatch(audit.stdout, /Settings/);

    const exported = run(['export', '--help']);
    assert.match(exported.stdout, /--out <file\|->/);
    assert.deepEqual(settingsIn(exported.stdout), [
      'GATEHOUSE_DATA_DIR',
      'GATEHOUSE_DATABASE_URL',
      'GATEHOUSE_DATABASE_POOL_SIZE',
      'GATEHOUSE_DATABASE_STATEMENT_TIMEOUT',
      'GATEHOUSE_DATABASE_ACQUIRE_TIMEOUT',
      // The export names the key its sealed values need; the import checks the target holds it.
      'GATEHOUSE_SECRETS_KEY',
    ]);
    assert.match(exported.stdout, /\[default: SQLite: generated into <database>\.secrets-key; PostgreSQL: required\]/);
  });

  it('an unknown flag or a stray argument is refused before anything starts: exit 2, one line naming each', () => {
    const misspelt = run(['serve', '--prot', '38096']);
    assert.equal(misspelt.status, 2);
    assert.equal(misspelt.stdout, '', 'nothing started');
    assert.equal(misspelt.stderr, 'gatehouse: serve: unknown option --prot (gatehouse serve --help lists what it takes)\n');

    const stray = run(['migrate', 'now', '--port', '1']);
    assert.equal(stray.status, 2);
    assert.equal(stray.stderr, 'gatehouse: migrate: unexpected argument "now"; unknown option --port (gatehouse migrate --help lists what it takes)\n');
  });

  it('a bad setting stops start-up: exit 2, one line naming it', () => {
    const r = run(['serve'], { GATEHOUSE_PORT: 'http' });
    assert.equal(r.status, 2);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /^gatehouse: invalid setting GATEHOUSE_PORT: expected a whole number from 0 to 65535 \(got "http"\)$/);
  });

  it('a database out of reach stops start-up with one line naming GATEHOUSE_DATABASE_URL, its password hidden', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-cli-'));
    dirs.push(dataDir);
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const r = run(['serve'], { GATEHOUSE_DATABASE_URL: 'postgres://gate:hunter2@127.0.0.1:1/gatehouse', GATEHOUSE_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'), GATEHOUSE_DATA_DIR: dataDir });
    assert.equal(r.status, 1, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, /^gatehouse: GATEHOUSE_DATABASE_URL \(postgres:\/\/gate:\*\*\*@127\.0\.0\.1:1\/gatehouse\) cannot be used: .*ECONNREFUSED/);
    assert.ok(!r.stderr.includes('hunter2'));
  });

  it('a data directory that cannot hold the database is named as GATEHOUSE_DATA_DIR, the setting the operator gave', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-cli-'));
    dirs.push(dir);
    const notADirectory = path.join(dir, 'a-file');
    fs.writeFileSync(notADirectory, '');
    const r = run(['serve'], { GATEHOUSE_DATA_DIR: notADirectory, GATEHOUSE_DATABASE_URL: '' });
    assert.equal(r.status, 1, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, new RegExp(`^gatehouse: GATEHOUSE_DATA_DIR \\(${notADirectory.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) cannot be used: `));
  });

  for (const target of databaseTargets()) {
    it(`serve (${target.kind}): generates and prints the admin token once, logs where it listens, finishes an in-flight request on SIGTERM and exits 0`, async () => {
      const database = await target.create();
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-cli-'));
      dirs.push(dataDir);
      // Port 0: the system picks free ports as it binds (a port found free first may be taken by
      // then), and the start-up line must say which; the requests below go where it says.
      const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--admin-port', '0'], {
        env: { ...process.env, GATEHOUSE_DATABASE_URL: database.url, ...secretsKeyEnvFor(database.url), GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_ADMIN_TOKEN: '', GATEHOUSE_SHUTDOWN_GRACE: '0' },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      try {
        // A generous deadline: a cold start compiles the sources.
        await until(() => stdout.includes('gatehouse listening') || child.exitCode !== null, 60_000, `the start-up line in: ${stdout}${stderr}`);
        const startLine = stdout.split('\n').find((l) => l.includes('gatehouse listening'));
        assert.ok(startLine, `no start-up line in: ${stdout}${stderr}`);
        const start = JSON.parse(startLine);
        const port = Number(/^http:\/\/127\.0\.0\.1:(\d+)$/.exec(start.public)?.[1]);
        const adminPort = Number(/^http:\/\/127\.0\.0\.1:(\d+)$/.exec(start.admin)?.[1]);
        assert.ok(port > 0 && adminPort > 0 && port !== adminPort, `listening on ${start.public} and ${start.admin}`);
        assert.equal(start.database, target.kind);
        assert.equal(start.dataDir, dataDir);
        assert.equal(start.workers, 'in process');
        // The URLs are where this machine reaches it; the public listener's default bind reaches further, and the line says so.
        assert.match(start.msg, /; bound to every interface: public on 0\.0\.0\.0$/);

        const tokenFile = path.join(dataDir, 'admin-token');
        const token = fs.readFileSync(tokenFile, 'utf8').trim();
        assert.equal(fs.statSync(tokenFile).mode & 0o777, 0o600);
        assert.ok(stderr.includes(token), 'token printed once at first start');
        assert.ok(!stdout.includes(token), 'token never in the JSON log');

        // Start a request whose body is still arriving, then ask the process to stop.
        const body = JSON.stringify({ name: 'In flight' });
        const socket = net.connect(adminPort, '127.0.0.1');
        await new Promise((r) => socket.once('connect', r));
        let response = '';
        socket.on('data', (d) => (response += d));
        const closedSocket = new Promise((r) => socket.once('close', r));
        await new Promise((r) =>
          socket.write(
            `POST /admin/v1/accounts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
              `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`,
            r,
          ),
        );
        // The bytes are in the server's socket buffer; a request answered after them means its
        // event loop has polled since, so it has read those headers: the request is in flight.
        assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
        child.kill('SIGTERM');
        await until(() => stdout.includes('shutting down'), 10_000, 'the shutdown line');
        socket.write(body.slice(5));
        await closedSocket;
        assert.match(response, /^HTTP\/1\.1 201/);
        assert.match(response, /"name":"In flight"/);
        assert.equal(await exited, 0);
        assert.match(stdout, /shutting down/);
      } finally {
        child.kill('SIGKILL');
        await database.drop();
      }
    });
  }
});
