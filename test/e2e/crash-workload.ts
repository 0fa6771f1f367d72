/**
 * The write workload of the crash-safety test: clients that behave as the interface tells
 * integrators and identity providers to behave. Every write is retried, with the same
 * Idempotency-Key (or, for SCIM, the same request), until the service gives an answer that
 * is about the operation: a connection lost with the process, a 5xx or `idempotency_key_in_use`
 * is not an answer, so the client tries again against whichever node is serving now.
 *
 * What each client was told is kept in a journal the test then checks the database against.
 */
import { randomUUID } from 'node:crypto';
import type { Json } from '../helpers/http.ts';

/** A small seeded generator (mulberry32): the same seed gives the same workload and kill points. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Answer {
  status: number;
  body: Json;
  replayed: boolean;
  /** Sends it took, the acknowledged one included. */
  attempts: number;
}

export interface Cluster {
  /** The URL of the node serving now; changes on every restart. */
  url(): string;
  /** Acknowledged writes so far (the kill schedule counts them). */
  acknowledged: number;
}

export interface Journal {
  invoices: Map<string, { amount: number; currency: string; settled: boolean }>;
  /** Idempotency-Key → what the key was finally answered. */
  payouts: Map<string, { status: number; body: Json; request: { amount: number; currency: string; destination: string } }>;
  /** userName → the user's id and the last acknowledged values. */
  users: Map<string, { id: string; givenName: string; active: boolean; createdOnRetry: boolean }>;
  /** Sends that did not get an answer (lost with a process, or told to come back). */
  unanswered: number;
}

export function newJournal(): Journal {
  return { invoices: new Map(), payouts: new Map(), users: new Map(), unanswered: 0 };
}

const SCIM_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const SCIM_PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** One logical request, sent until it is answered. */
export async function untilAnswered(
  cluster: Cluster,
  journal: Journal,
  request: { method: string; path: string; token: string; key?: string; scim?: boolean; body?: unknown },
  deadline: number,
): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${request.token}` };
  if (request.key) headers['idempotency-key'] = request.key;
  if (request.body !== undefined) headers['content-type'] = request.scim ? 'application/scim+json' : 'application/json';
  for (let attempts = 1; ; attempts++) {
    if (Date.now() > deadline) throw new Error(`${request.method} ${request.path} unanswered after ${attempts - 1} attempts`);
    try {
      const response = await fetch(cluster.url() + request.path, {
        method: request.method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await response.text();
      const body: Json = text ? JSON.parse(text) : undefined;
      const busy = response.status === 409 && body?.code === 'idempotency_key_in_use';
      if (response.status < 500 && !busy) {
        cluster.acknowledged++;
        return { status: response.status, body, replayed: response.headers.get('idempotent-replay') === 'true', attempts };
      }
    } catch {
      /* the connection died with the process, or no node is listening yet */
    }
    journal.unanswered++;
    // Polling for the next node (or the dead claim's lease), not waiting for time to pass.
    await new Promise((r) => setTimeout(r, Math.min(25 * attempts, 250)));
  }
}

export interface Tokens {
  payments: string;
  scim: string;
}

/**
 * One client's share of the workload: `operations` steps chosen by `random`. Funding settles
 * an invoice (two keyed writes); payouts take money out (some to a destination the processor
 * fails); SCIM creates users and later changes one of them.
 */
export async function runClient(
  cluster: Cluster,
  journal: Journal,
  tokens: Tokens,
  input: { name: string; random: () => number; operations: number; deadline: number },
): Promise<void> {
  const { random, deadline } = input;
  const mine: string[] = [];
  const send = (r: Parameters<typeof untilAnswered>[2]) => untilAnswered(cluster, journal, r, deadline);
  for (let step = 0; step < input.operations; step++) {
    const roll = step === 0 ? 0 : random();
    if (roll < 0.3) {
      const currency = random() < 0.7 ? 'EUR' : 'USD';
      const amount = 1000 + Math.floor(random() * 4000);
      const created = await send({ method: 'POST', path: '/v1/invoices', token: tokens.payments, key: randomUUID(), body: { amount, currency } });
      if (created.status !== 201) throw new Error(`invoice create answered ${created.status}: ${JSON.stringify(created.body)}`);
      journal.invoices.set(created.body.id, { amount, currency, settled: false });
      const settled = await send({ method: 'POST', path: `/v1/invoices/${created.body.id}/settle`, token: tokens.payments, key: randomUUID() });
      if (settled.status !== 200) throw new Error(`settle answered ${settled.status}: ${JSON.stringify(settled.body)}`);
      journal.invoices.get(created.body.id)!.settled = true;
    } else if (roll < 0.65) {
      const request = {
        amount: 1 + Math.floor(random() * 600),
        currency: random() < 0.7 ? 'EUR' : 'USD',
        destination: random() < 0.2 ? `test_fail_${input.name}` : `acct_${input.name}`,
      };
      const key = randomUUID();
      const answer = await send({ method: 'POST', path: '/v1/payouts', token: tokens.payments, key, body: request });
      if (answer.status !== 201 && answer.status !== 422) throw new Error(`payout answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      journal.payouts.set(key, { status: answer.status, body: answer.body, request });
    } else if (roll < 0.85 || mine.length === 0) {
      const userName = `${input.name}-${step}@example.com`;
      const givenName = `Given ${step}`;
      const answer = await send({
        method: 'POST',
        path: '/scim/v2/Users',
        token: tokens.scim,
        scim: true,
        body: { schemas: [SCIM_USER], userName, externalId: `ext-${userName}`, name: { givenName, familyName: input.name }, active: true },
      });
      // A create whose first send committed before the process died is refused as a duplicate
      // on retry: the user exists once, which is what the retry wanted.
      const existed = answer.status === 409 && answer.attempts > 1 && answer.body?.scimType === 'uniqueness';
      if (answer.status !== 201 && !existed) throw new Error(`SCIM create answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      let id: string = answer.body.id;
      if (existed) {
        const filter = encodeURIComponent(`userName eq "${userName}"`);
        const found = await send({ method: 'GET', path: `/scim/v2/Users?filter=${filter}`, token: tokens.scim });
        id = found.body?.Resources?.[0]?.id;
        if (!id) throw new Error(`${userName} refused as a duplicate but not found: ${JSON.stringify(found.body)}`);
      }
      journal.users.set(userName, { id, givenName, active: true, createdOnRetry: existed });
      mine.push(userName);
    } else {
      const userName = mine[Math.floor(random() * mine.length)]!;
      const user = journal.users.get(userName)!;
      const givenName = `Renamed ${step}`;
      const active = random() < 0.8;
      const answer = await send({
        method: 'PATCH',
        path: `/scim/v2/Users/${user.id}`,
        token: tokens.scim,
        scim: true,
        body: {
          schemas: [SCIM_PATCH],
          Operations: [
            { op: 'replace', path: 'name.givenName', value: givenName },
            { op: 'replace', path: 'active', value: active },
          ],
        },
      });
      if (answer.status !== 200) throw new Error(`SCIM PATCH answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      Object.assign(user, { givenName, active });
    }
  }
}
