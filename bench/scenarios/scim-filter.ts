/**
 * SCIM filter on 100,000 users: `GET /scim/v2/Users?filter=userName eq "…"` on Gatehouse against
 * scimmy + scimmy-routers holding the same users in memory. Target: ≥ 500× scimmy's req/s and p99 < 10 ms
 * (SQLite) at the stated load: FILTER_CONNECTIONS connections, the few parallel workers an identity
 * provider provisions with, measured after a warm-up at that same load. Also measures provisioning by
 * POST (users/s) and one member added to a 10,000-member group.
 */
import { cpuMicros, load } from '../lib/load.ts';
import { cpuBetween, postgresCpuOf } from '../lib/postgres-cpu.ts';
import { startGatehouse, startNode } from '../lib/processes.ts';
import type { Row } from '../lib/report.ts';
import type { Scenario } from '../run.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import { newId } from '../../src/platform/ids.ts';

const USERS = Number(process.env.BENCH_SCIM_USERS ?? 100_000);
const PROBE_USER = Math.floor(USERS * 0.77);
/** The stated load of the filter measurement (the p99 target applies at it). */
const FILTER_CONNECTIONS = 10;
const probe = (i: number) => `/scim/v2/Users?filter=${encodeURIComponent(`userName eq "user${i}@example.com"`)}`;

export const scimFilter: Scenario = {
  name: 'scim-filter',
  async run({ databases, note }) {
    const rows: Row[] = [];
    const seconds = Number(process.env.BENCH_SECONDS ?? 10);
    const scimmy = await startNode(['--import', 'tsx', 'bench/peers/scimmy-users.ts'], { ready: /listening (\S+)/, env: { SCIMMY_USERS: String(USERS) } });
    const reference = await load({ url: scimmy.url + probe(PROBE_USER), headers: { authorization: 'Bearer x' }, connections: 4, durationSeconds: seconds });
    rows.push({ scenario: 'scim-filter', subject: 'scimmy + express, userName eq (in memory)', database: '-', ...reference, peakRssMiB: scimmy.peakRssMiB() });
    await scimmy.stop();

    for (const database of databases) {
      const postgres = database.kind === 'postgres' ? postgresCpuOf(database.url!) : undefined;
      const gatehouse = await startGatehouse({ databaseUrl: postgres?.url ?? database.url });
      const admin = (path: string, body: unknown) =>
        fetch(gatehouse.adminUrl + path, { method: 'POST', headers: { authorization: `Bearer ${gatehouse.adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<{ id: string; token: string }>);
      const account = await admin('/admin/v1/accounts', { name: 'Bench' });
      const { token } = await admin(`/admin/v1/accounts/${account.id}/scim-tokens`, {});
      const opened = await openDatabase({ databaseUrl: database.url ?? `sqlite:${gatehouse.dataDir}/gatehouse.db` });
      const now = Date.now();
      const seedStarted = Date.now();
      const ids: string[] = [];
      for (let start = 0; start < USERS; start += 5000) {
        const batch = Array.from({ length: 5000 }, (_, k) => {
          const i = start + k;
          const id = newId('usr');
          ids.push(id);
          const userName = `user${i}@example.com`;
          return { id, account_id: account.id, user_name: userName, user_name_lower: userName, external_id: null, given_name: `Given${i}`, family_name: `Family${i}`, display_name: null, active: 1, password_hash: null, attributes: JSON.stringify({ emails: [{ value: userName, type: 'work', primary: true }] }), version: 1, created_at: now + i, updated_at: now + i };
        });
        await opened.db.transaction().execute(async (trx) => {
          for (let j = 0; j < batch.length; j += 500) await trx.insertInto('users').values(batch.slice(j, j + 500)).execute();
          const values = batch.map((u) => ({ account_id: account.id, user_id: u.id, attr: 'emails', item: 0, sub: 'value', value: u.user_name, value_lower: u.user_name }));
          for (let j = 0; j < values.length; j += 500) await trx.insertInto('scim_user_values').values(values.slice(j, j + 500)).execute();
        });
        if ((start + 5000) % 25_000 === 0) console.log(`  seeded ${start + 5000} users (${database.kind})`);
      }
      note(`scim-filter, ${database.kind}: ${USERS.toLocaleString('en')} users (with their e-mail search rows) seeded in ${((Date.now() - seedStarted) / 1000).toFixed(0)} s`);
      const headers = { authorization: `Bearer ${token}` };
      await load({ url: gatehouse.url + probe(PROBE_USER), headers, connections: FILTER_CONNECTIONS, durationSeconds: 3 });
      const cpuBefore = cpuMicros(gatehouse.process.pid!);
      const result = await load({ url: gatehouse.url + probe(PROBE_USER), headers, connections: FILTER_CONNECTIONS, durationSeconds: seconds });
      const cpu = Math.round((cpuMicros(gatehouse.process.pid!) - cpuBefore) / Math.max(1, result.total));
      const ratio = result.requestsPerSecond / Math.max(reference.requestsPerSecond, 0.01);
      rows.push({
        scenario: 'scim-filter',
        subject: `gatehouse userName eq on ${USERS.toLocaleString('en')} users, ${FILTER_CONNECTIONS} connections (${cpu} µs CPU/req)`,
        database: database.kind,
        ...result,
        peakRssMiB: gatehouse.peakRssMiB(),
        ratio: `${Math.round(ratio)} × scimmy`,
        target: database.kind === 'sqlite' ? '≥ 500, p99 < 10 ms' : undefined,
        pass: database.kind === 'sqlite' ? ratio >= 500 && result.p99Ms < 10 && result.non2xx === 0 : result.non2xx === 0,
      });

      let n = 0;
      const postgresBefore = await postgres?.sample();
      const postCpuBefore = cpuMicros(gatehouse.process.pid!);
      const post = await load({
        url: `${gatehouse.url}/scim/v2/Users`,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/scim+json' },
        connections: 10,
        durationSeconds: Math.max(5, seconds),
        setupRequest: (request) => ({ ...request, body: JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: `new${n++}@example.com`, emails: [{ value: `new${n}@example.com`, type: 'work' }] }) }),
      });
      const postCpu = Math.round((cpuMicros(gatehouse.process.pid!) - postCpuBefore) / Math.max(1, post.total));
      const postgresPostCpu = postgres && postgresBefore ? ` + PostgreSQL ${Math.round(cpuBetween(postgresBefore, await postgres.sample()) / Math.max(1, post.total))}` : '';
      rows.push({ scenario: 'scim-filter', subject: `gatehouse POST /Users (users/s; ${postCpu}${postgresPostCpu} µs CPU/req)`, database: database.kind, ...post });

      const group = await fetch(`${gatehouse.url}/scim/v2/Groups`, { method: 'POST', headers: { ...headers, 'content-type': 'application/scim+json' }, body: JSON.stringify({ displayName: 'Big' }) }).then((r) => r.json() as Promise<{ id: string }>);
      const members = ids.slice(0, Math.min(10_000, USERS / 2)).map((user_id) => ({ group_id: group.id, user_id, account_id: account.id, created_at: now }));
      for (let j = 0; j < members.length; j += 500) await opened.db.insertInto('scim_group_members').values(members.slice(j, j + 500)).execute();
      const started = performance.now();
      const patched = await fetch(`${gatehouse.url}/scim/v2/Groups/${group.id}`, {
        method: 'PATCH',
        headers: { ...headers, 'content-type': 'application/scim+json' },
        body: JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'add', path: 'members', value: [{ value: ids[Math.floor(USERS / 2)] }] }] }),
      });
      const ms = performance.now() - started;
      rows.push({ scenario: 'scim-filter', subject: `gatehouse add 1 member to a 10,000-member group: ${ms.toFixed(1)} ms`, database: database.kind, requestsPerSecond: 0, p50Ms: Math.round(ms * 10) / 10, p99Ms: Math.round(ms * 10) / 10, non2xx: patched.status === 204 ? 0 : 1 });
      await opened.close();
      await gatehouse.stop();
    }
    return rows;
  },
};
