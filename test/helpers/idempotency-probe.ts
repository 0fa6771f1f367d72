/**
 * A /v1 write used to test the idempotency mechanism through real HTTP on a real app, before
 * and independently of the business writes: it inserts a row and records an event through
 * `runWrite`, exactly as a business write does, and can refuse like one.
 *
 * - body `amount` above PROBE_BALANCE → 422 insufficient_funds, thrown after its effects
 * - header `x-probe-fail: internal` → an unexpected error after the effects (500)
 * - header `x-probe-fail: rate-limited` → a 429 thrown inside the handler
 * - header `x-probe-throttle` → refused 429 by a preHandler, before the runner (stands in
 *   for the rate limiter, which lives in another capability)
 * - header `x-probe-crash: before-commit` → SIGKILL between the effects and the commit, only
 *   in a spawned server (GATEHOUSE_TEST_EXTENSIONS set), never in the test process itself; the
 *   hook sits in the write runner, so it works on every /v1 write (e.g. POST /v1/payouts)
 *
 * In-process apps get it through `startTestApp(target, { extensions: { extraRoutes: registerProbeRoutes } })`;
 * spawned servers through NODE_ENV=test and GATEHOUSE_TEST_EXTENSIONS=<this file>.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { GatehouseDeps } from '../../src/app.ts';
import type { Db } from '../../src/platform/db/database.ts';
import { OAUTH2_SCHEME, principalOf, requireBearer } from '../../src/platform/auth.ts';
import { problem } from '../../src/platform/errors/catalogue.ts';
import { errorResponses } from '../../src/platform/http/schemas.ts';
import { newId } from '../../src/platform/ids.ts';
import { toRfc3339 } from '../../src/platform/clock.ts';
import { recordEvent } from '../../src/events/outbox.ts';

export const PROBE_FILE = new URL(import.meta.url).pathname;
export const PROBE_BALANCE = 1_000_000;
export const PROBE_SCOPE = 'payouts:write';

interface ProbeBody {
  amount: number;
  currency: string;
  destination: string;
  metadata?: Record<string, string>;
}

const effectSchema = {
  type: 'object',
  required: ['id', 'object', 'bucket', 'amount', 'currency', 'destination', 'created_at'],
  properties: {
    id: { type: 'string' },
    object: { type: 'string' },
    bucket: { type: 'string' },
    amount: { type: 'integer' },
    currency: { type: 'string' },
    destination: { type: 'string' },
    metadata: { type: 'object', additionalProperties: { type: 'string' } },
    created_at: { type: 'string' },
  },
} as const;

async function createProbeTable(db: Db): Promise<void> {
  try {
    await sql`create table if not exists idempotency_probe_effects (
      id text primary key, account_id text not null, bucket text not null, amount bigint not null,
      currency text not null, destination text not null, created_at bigint not null)`.execute(db);
  } catch (error) {
    // Two processes starting on one PostgreSQL database may race to create it.
    const code = (error as { code?: string }).code;
    if (code !== '23505' && code !== '42P07') throw error;
  }
}

export const registerProbeRoutes: NonNullable<GatehouseDeps['extraRoutes']> = async (app: FastifyInstance, { services, database, clock }) => {
  await createProbeTable(database.db);
  const throttle = async (request: FastifyRequest) => {
    if (request.headers['x-probe-throttle'] !== undefined) throw problem('rate_limited', { headers: { 'retry-after': '1' } });
  };

  app.post<{ Params: { bucket: string }; Body: ProbeBody }>(
    '/v1/idempotency-probe/:bucket/effects',
    {
      preHandler: [requireBearer(services.accessTokens, [PROBE_SCOPE]), throttle],
      schema: {
        tags: ['idempotency probe'],
        summary: 'Test-only write that exercises the idempotency runner',
        security: [{ [OAUTH2_SCHEME]: [PROBE_SCOPE] }],
        params: { type: 'object', required: ['bucket'], properties: { bucket: { type: 'string', pattern: '^[a-z0-9-]{1,40}$' } } },
        body: {
          type: 'object',
          required: ['amount', 'currency', 'destination'],
          additionalProperties: false,
          properties: {
            amount: { type: 'integer', minimum: 1 },
            currency: { type: 'string', pattern: '^[A-Z]{3}$' },
            destination: { type: 'string', minLength: 1, maxLength: 100 },
            metadata: { type: 'object', additionalProperties: { type: 'string' } },
          },
        },
        response: { 201: effectSchema, ...errorResponses(400, 401, 403, 409, 422, 429) },
      },
    },
    async (request, reply) =>
      services.writes.runWrite(request, reply, async (trx) => {
        const { accountId } = principalOf(request);
        const { bucket } = request.params;
        const body = request.body;
        const id = newId('prb');
        const now = clock.now();
        await sql`insert into idempotency_probe_effects (id, account_id, bucket, amount, currency, destination, created_at)
          values (${id}, ${accountId}, ${bucket}, ${body.amount}, ${body.currency}, ${body.destination}, ${now})`.execute(trx);
        await recordEvent(trx, { accountId, type: 'probe.created', object: 'probe_effect', objectId: id, state: 'created', data: { id, object: 'probe_effect', bucket, amount: body.amount }, at: now });
        if (body.amount > PROBE_BALANCE) {
          throw problem('insufficient_funds', { detail: `amount ${body.amount} exceeds the available ${PROBE_BALANCE}` });
        }
        const fail = request.headers['x-probe-fail'];
        if (fail === 'internal') throw new Error('probe failure after its effects');
        if (fail === 'rate-limited') throw problem('rate_limited', { headers: { 'retry-after': '1' } });
        return {
          status: 201,
          headers: { location: `/v1/idempotency-probe/${bucket}/effects/${id}` },
          body: { id, object: 'probe_effect', bucket, ...body, created_at: toRfc3339(now) },
        };
      }),
  );
};

/** What a spawned server loads through GATEHOUSE_TEST_EXTENSIONS. */
export const testExtensions: Pick<GatehouseDeps, 'extraRoutes' | 'writeHooks'> = {
  extraRoutes: registerProbeRoutes,
  writeHooks: {
    beforeCommit(request) {
      if (request.headers['x-probe-crash'] === 'before-commit' && process.env.GATEHOUSE_TEST_EXTENSIONS) {
        process.kill(process.pid, 'SIGKILL');
        // Hold the event loop so that nothing, least of all the commit, runs before the signal lands.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
      }
    },
  },
};

/** Effects and events the probe has committed for an account (and bucket). */
export async function probeCounts(db: Db, accountId: string, bucket?: string): Promise<{ effects: number; events: number }> {
  const effects = await sql<{ n: number | string }>`select count(*) as n from idempotency_probe_effects
    where account_id = ${accountId} ${bucket === undefined ? sql`` : sql`and bucket = ${bucket}`}`.execute(db);
  const events = await sql<{ n: number | string }>`select count(*) as n from events
    where account_id = ${accountId} and type = 'probe.created'
    ${bucket === undefined ? sql`` : sql`and object_id in (select id from idempotency_probe_effects where bucket = ${bucket})`}`.execute(db);
  return { effects: Number(effects.rows[0]!.n), events: Number(events.rows[0]!.n) };
}
