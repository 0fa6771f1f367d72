/**
 * The dispatcher's pure parts, alone: the per-endpoint slots, the cache of opened credentials,
 * and the batching recorder of outcomes. No database, no receiver: they run in milliseconds.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { createEndpointSlots } from '../../src/webhooks/endpoint-slots.ts';
import { createCredentials, type SealedCredentials } from '../../src/webhooks/credentials.ts';
import { createOutcomeRecorder, RECORD_BATCH, RECORD_MARGIN_MS, RECORD_RETRY_MS, type Leased } from '../../src/webhooks/outcome-recorder.ts';
import { createSealer, type Sealer } from '../../src/platform/secrets-key.ts';
import { sealHeaders } from '../../src/webhooks/endpoint-headers.ts';
import { newWebhookSecret } from '../../src/webhooks/secrets.ts';
import { until } from '../helpers/until.ts';

const silent = pino({ level: 'silent' });

describe('endpoint slots: per-endpoint concurrency of a worker', () => {
  const delivery = (endpointId: string, id: string) => ({ endpointId, id });

  it('starts at most perEndpoint attempts of one endpoint; a finished one frees its slot', () => {
    const slots = createEndpointSlots<ReturnType<typeof delivery>>({ perEndpoint: 2, prefetch: 4 });
    for (const id of ['a1', 'a2', 'a3']) slots.hold(delivery('A', id));
    slots.hold(delivery('B', 'b1'));
    assert.equal(slots.held, 4);

    const first = slots.next('A');
    slots.started('A');
    const second = slots.next('A');
    slots.started('A');
    assert.deepEqual([first?.id, second?.id], ['a1', 'a2']);
    assert.equal(slots.next('A'), undefined, 'both slots of A are busy');
    assert.equal(slots.next('B')?.id, 'b1', 'another endpoint is not held back by A');

    slots.finished('A');
    assert.equal(slots.held, 3);
    assert.equal(slots.next('A')?.id, 'a3');
    assert.equal(slots.next('A'), undefined, 'the line is empty');
  });

  it('an endpoint holding half its prefetch is full: a claim skips it, and room is what its bound leaves', () => {
    const slots = createEndpointSlots<ReturnType<typeof delivery>>({ perEndpoint: 2, prefetch: 4 });
    // bound 8, top-up mark 4
    for (let i = 0; i < 4; i++) slots.hold(delivery('A', `a${i}`));
    slots.hold(delivery('B', 'b0'));
    assert.deepEqual(slots.full(), ['A']);
    assert.equal(slots.wantsMore('A'), false);
    assert.equal(slots.wantsMore('B'), true);
    assert.equal(slots.wantsMore('C'), true, 'an endpoint not in hand wants work');
    const room = slots.room();
    assert.deepEqual([...room.of], [['A', 4], ['B', 7]]);
    assert.equal(room.otherwise, 8);

    slots.next('A');
    slots.letGo('A');
    assert.deepEqual(slots.full(), [], 'letting one go takes A below its mark');
    assert.equal(slots.wantsMore('A'), true);
  });

  it('takeWaiting hands back every delivery not started, and leaves the started ones in hand', () => {
    const slots = createEndpointSlots<ReturnType<typeof delivery>>({ perEndpoint: 1, prefetch: 4 });
    for (const id of ['a1', 'a2']) slots.hold(delivery('A', id));
    slots.hold(delivery('B', 'b1'));
    slots.next('A');
    slots.started('A');
    assert.deepEqual(
      slots.takeWaiting().map((d) => d.id),
      ['a2', 'b1'],
    );
    assert.equal(slots.held, 1, 'the attempt under way is still in hand');
    assert.equal(slots.next('B'), undefined);
    slots.finished('A');
    assert.equal(slots.held, 0);
    assert.deepEqual(slots.full(), []);
  });
});

describe('credentials: endpoint secrets and headers opened once per sealed form', () => {
  function countingSealer(): Sealer & { opened: number } {
    const sealer = createSealer(randomBytes(32), 'webhook secrets');
    const counting = {
      opened: 0,
      seal: sealer.seal,
      open(box: string, associated?: string) {
        counting.opened++;
        return sealer.open(box, associated);
      },
    };
    return counting;
  }

  function endpointOf(sealer: Sealer, fields: Partial<SealedCredentials> = {}): SealedCredentials {
    return {
      endpointId: 'we_1',
      secretSealed: sealer.seal(newWebhookSecret(), 'we_1'),
      previousSecretSealed: null,
      previousSecretExpiresAt: null,
      headersSealed: null,
      ...fields,
    };
  }

  it('opens a secret once and signs with the same key afterwards', () => {
    const sealer = countingSealer();
    const credentials = createCredentials(sealer);
    const endpoint = endpointOf(sealer);
    const [first] = credentials.keysOf(endpoint, 0);
    const [again] = credentials.keysOf(endpoint, 0);
    assert.equal(sealer.opened, 1);
    assert.equal(again, first);
  });

  it('a rotation: both keys during the overlap, the current one first; only the current after it', () => {
    const sealer = countingSealer();
    const credentials = createCredentials(sealer);
    const before = endpointOf(sealer);
    const [old] = credentials.keysOf(before, 0);
    const rotated = endpointOf(sealer, { previousSecretSealed: before.secretSealed, previousSecretExpiresAt: 1000 });
    const during = credentials.keysOf(rotated, 999);
    assert.equal(during.length, 2);
    assert.notEqual(during[0], old);
    assert.equal(during[1], old, 'the previous key is the one opened before the rotation');
    assert.equal(credentials.keysOf(rotated, 1000).length, 1, 'the overlap has ended');
    assert.equal(sealer.opened, 2, 'each sealed secret opened once');
  });

  it('a secret sealed under another key or for another endpoint is refused', () => {
    const sealer = countingSealer();
    const credentials = createCredentials(sealer);
    const other = createSealer(randomBytes(32), 'webhook secrets');
    assert.throws(() => credentials.keysOf(endpointOf(sealer, { secretSealed: other.seal(newWebhookSecret(), 'we_1') }), 0), /cannot be opened/);
    assert.throws(() => credentials.keysOf(endpointOf(sealer, { secretSealed: sealer.seal(newWebhookSecret(), 'we_2') }), 0), /cannot be opened/);
  });

  it("an endpoint's own headers: none when it has none; opened again when their sealed form changes", () => {
    const sealer = countingSealer();
    const credentials = createCredentials(sealer);
    assert.equal(credentials.headersOf(endpointOf(sealer)), undefined);
    const first = endpointOf(sealer, { headersSealed: sealHeaders(sealer, 'we_1', { 'X-Tenant': 'one' }) });
    assert.deepEqual(credentials.headersOf(first), { 'X-Tenant': 'one' });
    assert.deepEqual(credentials.headersOf(first), { 'X-Tenant': 'one' });
    assert.equal(sealer.opened, 1);
    const updated = endpointOf(sealer, { headersSealed: sealHeaders(sealer, 'we_1', { 'X-Tenant': 'two' }) });
    assert.deepEqual(credentials.headersOf(updated), { 'X-Tenant': 'two' });
    assert.equal(sealer.opened, 2);
  });
});

describe('outcome recorder: batches, retries while leases last, and stops', () => {
  interface Fake extends Leased {
    n: number;
  }
  const outcome = (n: number, leaseUntil = 1_000_000): Fake => ({ n, delivery: { leaseUntil } });

  it('writes at once when the worker holds nothing else, and settles once written', async () => {
    const written: number[][] = [];
    const recorder = createOutcomeRecorder<Fake>({
      write: async (batch) => void written.push(batch.map((o) => o.n)),
      retryable: () => false,
      now: () => 0,
      idle: () => true,
      log: silent,
    });
    recorder.expect();
    recorder.expect();
    recorder.add(outcome(1));
    recorder.add(outcome(2));
    await recorder.settle();
    assert.deepEqual(written, [[1], [2]], 'the second finished while the first batch was written, so it makes up the next');
    assert.equal(recorder.unrecorded, 0);
  });

  it('while the worker is busy, outcomes wait for a full batch or the delay, then go in one batch', async () => {
    const written: number[][] = [];
    const recorder = createOutcomeRecorder<Fake>({
      write: async (batch) => void written.push(batch.map((o) => o.n)),
      retryable: () => false,
      now: () => 0,
      idle: () => false,
      log: silent,
    });
    for (let n = 0; n < RECORD_BATCH + 2; n++) recorder.expect();
    for (let n = 0; n < RECORD_BATCH + 2; n++) recorder.add(outcome(n));
    await recorder.settle();
    assert.deepEqual(
      written.map((b) => b.length),
      [RECORD_BATCH, 2],
    );
  });

  it('a write the database could not take is tried again for the outcomes whose lease lasts; the rest are given up', async () => {
    const now = 10_000;
    let failures = 1;
    const written: number[][] = [];
    const recorder = createOutcomeRecorder<Fake>({
      write: async (batch) => {
        if (failures-- > 0) throw new Error('database away');
        written.push(batch.map((o) => o.n));
      },
      retryable: (error) => (error as Error).message === 'database away',
      now: () => now,
      // Busy: both outcomes go in one batch.
      idle: () => false,
      log: silent,
    });
    recorder.expect();
    recorder.expect();
    recorder.add(outcome(1, now + RECORD_RETRY_MS + RECORD_MARGIN_MS + 1));
    recorder.add(outcome(2, now + RECORD_RETRY_MS + RECORD_MARGIN_MS));
    await until(() => recorder.unrecorded === 1, 5000, 'the short lease given up');
    await recorder.settle();
    assert.deepEqual(written, [[1]]);
  });

  it('any other failure gives the batch up at once', async () => {
    let writes = 0;
    const recorder = createOutcomeRecorder<Fake>({
      write: async () => {
        writes++;
        throw new Error('constraint violated');
      },
      retryable: () => false,
      now: () => 0,
      idle: () => true,
      log: silent,
    });
    recorder.expect();
    recorder.add(outcome(1));
    await recorder.settle();
    assert.equal(writes, 1);
    assert.equal(recorder.unrecorded, 0);
  });

  it('abandoned: what is owed is counted, and outcomes arriving afterwards are not written', async () => {
    const written: number[] = [];
    const recorder = createOutcomeRecorder<Fake>({
      write: async (batch) => void written.push(...batch.map((o) => o.n)),
      retryable: () => true,
      now: () => 0,
      idle: () => true,
      log: silent,
    });
    recorder.expect();
    recorder.expect();
    recorder.lost();
    assert.equal(recorder.abandon(), 1);
    recorder.add(outcome(1));
    await recorder.settle();
    assert.deepEqual(written, []);
    assert.equal(recorder.unrecorded, 0);
  });
});
