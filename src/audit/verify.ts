/**
 * `verify`: walks each account's chain from its oldest kept record and names the first record
 * altered, removed or reordered (docs/AUDIT.md, "Tamper evidence"):
 *
 * - altered: the record's content (or its changes, against their MAC) no longer gives its hash,
 *   or it is marked detached as deleting a person never leaves a record (changes kept, or not
 *   about a person);
 * - removed: a place in the chain is empty, the chain ends before its recorded head, the chain
 *   starts at 1 from anything but the account's genesis value, the head itself is gone while
 *   sealed records or signed checkpoints of the account remain, or an existing account has no
 *   trail at all (every account's starts with its creation);
 * - added: a sealed record beyond the recorded head (the sealer moves the head in the
 *   transaction that seals, so nothing it sealed lies beyond it), reported as altered;
 * - reordered: an intact record no longer links to the one before it, and the record that
 *   should follow is elsewhere in the chain;
 * - checkpoint: a signed checkpoint does not verify under the server's keys (or names a key that
 *   is not this server's), or the chain no longer passes through the hash it signed (the chain
 *   was rewritten after it).
 *
 * Pruning by retention moves the chain's start (audit_chains.first_seq / first_prev_hash)
 * in the transaction that deletes, and signs where it cut (first_jws), so a pruned chain
 * verifies from its oldest kept record, and a start moved without that statement is `removed`.
 */
import { compactVerify, importJWK } from 'jose';
import type { Db } from '../platform/db/database.ts';
import { problem } from '../platform/errors/catalogue.ts';
import { PLATFORM_ACCOUNT } from './catalogue.ts';
import { changesMac, genesisHash, recordHash } from './chain.ts';
import { CHECKPOINT_TYPE } from './sealer.ts';
import { START_TYPE } from './retention.ts';
import type { AuditEventRow } from './tables.ts';
import type { KeyVault } from '../platform/secrets-key.ts';
import { authenticPublicKey } from '../oauth/keys.ts';

export type ProblemKind = 'altered' | 'removed' | 'reordered' | 'checkpoint';

export interface ChainProblem {
  kind: ProblemKind;
  seq: number;
  /** The record named, when one is there to name. */
  id: string | null;
  detail: string;
}

export interface ChainReport {
  account: string;
  ok: boolean;
  /** Sealed records checked. */
  records: number;
  first_seq: number;
  head_seq: number;
  /** The head's hash: with `head_seq`, the anchor to keep elsewhere for a later verification. Null with no head. */
  head_hash: string | null;
  checkpoints: { verified: number };
  /** Records written and not yet sealed (not covered until they are). */
  pending: number;
  /** Records whose details were removed when the person they name was deleted. */
  detached: number;
  problem: ChainProblem | null;
}

const BATCH = 1000;

/**
 * A place in an account's chain known from outside the database: a record's `seq` and `hash` as a
 * SIEM received it or an earlier verification printed it. The checkpoints live beside the records,
 * so whoever deletes the newest records, their checkpoints and the head together leaves a chain
 * that verifies; it no longer reaches an anchor taken before.
 */
export interface ChainAnchor {
  seq: number;
  hash: string;
}

/** `<seq>:<hash>` as `ChainAnchor`, or undefined when it is not one. */
export function parseAnchor(text: string): ChainAnchor | undefined {
  const match = /^([1-9][0-9]{0,15}):([0-9a-f]{64})$/.exec(text);
  if (!match) return undefined;
  const seq = Number(match[1]);
  return Number.isSafeInteger(seq) ? { seq, hash: match[2]! } : undefined;
}

/** What the chain says of `anchor`: nothing when it passes through it or retention pruned that far. */
function anchorProblem(anchor: ChainAnchor, chain: { first_seq: number; head_seq: number }, hashAt: ReadonlyMap<number, string>): ChainProblem | null {
  if (anchor.seq < chain.first_seq) return null;
  if (anchor.seq > chain.head_seq) {
    return { kind: 'removed', seq: chain.head_seq + 1, id: null, detail: `the chain ends at ${chain.head_seq}, before the anchored record ${anchor.seq}: records were cut off with their checkpoints` };
  }
  if (hashAt.get(anchor.seq) !== anchor.hash) {
    return { kind: 'altered', seq: anchor.seq, id: null, detail: `the chain no longer passes through the anchored hash at ${anchor.seq}: it was rewritten` };
  }
  return null;
}

/** The `kid` a checkpoint's protected header names; undefined when the header is not a JSON object naming one. */
function signingKeyOf(jws: string): string | undefined {
  try {
    const header: unknown = JSON.parse(Buffer.from(jws.split('.')[0] ?? '', 'base64url').toString('utf8'));
    const kid = typeof header === 'object' && header !== null ? (header as { kid?: unknown }).kid : undefined;
    return typeof kid === 'string' && kid !== '' ? kid : undefined;
  } catch {
    return undefined;
  }
}

export function createAuditVerifier(deps: { db: Db; macKey: Buffer; vault: KeyVault }) {
  const { db, macKey, vault } = deps;

  /**
   * The key a checkpoint names, when it is one this server made: its row's sealed part opens
   * under the secrets key (oauth/keys.ts `authenticPublicKey`). A key row someone wrote into the
   * database, to sign a rewritten chain with, has no such seal.
   */
  async function keyOf(kid: string): Promise<Awaited<ReturnType<typeof importJWK>> | undefined> {
    const row = await db.selectFrom('oauth_signing_keys').select(['kid', 'public_jwk', 'private_jwk', 'alg']).where('kid', '=', kid).executeTakeFirst();
    const jwk = row && authenticPublicKey(vault, row);
    return jwk && row ? importJWK(jwk, row.alg) : undefined;
  }

  async function personExists(accountId: string, userId: string): Promise<boolean> {
    return (await db.selectFrom('users').select('id').where('account_id', '=', accountId).where('id', '=', userId).executeTakeFirst()) !== undefined;
  }

  /** Finds where the record that should follow `prevHash` went, to tell reordered from removed. */
  async function successorOf(accountId: string, prevHash: string): Promise<Pick<AuditEventRow, 'id' | 'seq'> | undefined> {
    // Only sealed records have a link: `seq is not null` lets the read take a sealed-only index.
    return db.selectFrom('audit_events').select(['id', 'seq']).where('account_id', '=', accountId).where('seq', 'is not', null).where('prev_hash', '=', prevHash).executeTakeFirst();
  }

  async function walk(accountId: string, chain: { first_seq: number; first_prev_hash: string; head_seq: number; head_hash: string }) {
    let expected = chain.first_seq;
    let prev = chain.first_prev_hash;
    let records = 0;
    let detached = 0;
    const hashAt = new Map<number, string>();
    for (;;) {
      const rows = await db
        .selectFrom('audit_events')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('seq', '>=', expected)
        .where('seq', '<=', chain.head_seq)
        .orderBy('seq')
        .limit(BATCH)
        .execute();
      for (const row of rows) {
        const seq = Number(row.seq);
        if (seq !== expected) {
          return { records, detached, hashAt, problem: { kind: 'removed', seq: expected, id: null, detail: `no record at ${expected}; the chain resumes at ${seq}` } as ChainProblem };
        }
        if (row.detached_at === null && changesMac(macKey, row.changes) !== row.changes_mac) {
          return { records, detached, hashAt, problem: { kind: 'altered', seq, id: row.id, detail: 'its changes do not match their MAC' } as ChainProblem };
        }
        // Detaching empties the changes of the records about a person, and nothing else: a
        // detached record with changes, or about anything else, was edited after.
        if (row.detached_at !== null && (row.changes !== null || row.target_type !== 'user')) {
          return { records, detached, hashAt, problem: { kind: 'altered', seq, id: row.id, detail: 'it is marked detached, which deleting a person does not leave' } as ChainProblem };
        }
        // Only deleting the person detaches what was recorded about them: one still there was not.
        if (row.detached_at !== null && (await personExists(accountId, row.target_id))) {
          return { records, detached, hashAt, problem: { kind: 'altered', seq, id: row.id, detail: 'it is marked detached, but the person it is about was never deleted' } as ChainProblem };
        }
        if (row.prev_hash === null || recordHash(row.prev_hash, row) !== row.hash) {
          return { records, detached, hashAt, problem: { kind: 'altered', seq, id: row.id, detail: 'its content does not match its hash' } as ChainProblem };
        }
        if (row.prev_hash !== prev) {
          const successor = await successorOf(accountId, prev);
          const problem: ChainProblem = successor
            ? { kind: 'reordered', seq, id: row.id, detail: `it does not follow the record before it; ${successor.id} does, at ${successor.seq}` }
            : { kind: 'removed', seq, id: row.id, detail: 'the record that preceded it is gone' };
          return { records, detached, hashAt, problem };
        }
        if (row.detached_at !== null) detached += 1;
        hashAt.set(seq, row.hash);
        prev = row.hash;
        expected += 1;
        records += 1;
      }
      if (rows.length < BATCH) break;
    }
    const last = expected - 1;
    if (last < chain.head_seq) {
      return { records, detached, hashAt, problem: { kind: 'removed', seq: expected, id: null, detail: `the chain ends at ${last}; its head is ${chain.head_seq}` } as ChainProblem };
    }
    if (last > 0 && last >= chain.first_seq && prev !== chain.head_hash && last === chain.head_seq) {
      return { records, detached, hashAt, problem: { kind: 'altered', seq: last, id: null, detail: 'the last record is not the recorded head' } as ChainProblem };
    }
    return { records, detached, hashAt, problem: await addedBeyond(accountId, chain.head_seq) };
  }

  /**
   * A sealed record past the head the walk stopped at. The head is read again after the record:
   * a sealer that committed meanwhile moved it past its own records in the same transaction, so
   * a record still beyond it was placed there by something else.
   */
  async function addedBeyond(accountId: string, headSeq: number): Promise<ChainProblem | null> {
    const beyond = await db.selectFrom('audit_events').select(['id', 'seq']).where('account_id', '=', accountId).where('seq', '>', headSeq).orderBy('seq').limit(1).executeTakeFirst();
    if (!beyond) return null;
    const head = await db.selectFrom('audit_chains').select('head_seq').where('account_id', '=', accountId).executeTakeFirst();
    const seq = Number(beyond.seq);
    if (head && seq <= Number(head.head_seq)) return null;
    return { kind: 'altered', seq, id: beyond.id, detail: `it lies beyond the chain's recorded head (${headSeq}): no seal placed it there` };
  }

  /** With no head stored: sealed records or checkpoints of the account left behind mean the head was removed. */
  async function headRemoved(accountId: string): Promise<ChainProblem | null> {
    const record = await db.selectFrom('audit_events').select(['id', 'seq']).where('account_id', '=', accountId).where('seq', 'is not', null).orderBy('seq').limit(1).executeTakeFirst();
    if (record) return { kind: 'removed', seq: Number(record.seq), id: record.id, detail: 'the chain’s head is gone while its sealed records remain' };
    const checkpoint = await db.selectFrom('audit_checkpoints').select('seq').where('account_id', '=', accountId).orderBy('seq').limit(1).executeTakeFirst();
    if (checkpoint) return { kind: 'removed', seq: Number(checkpoint.seq), id: null, detail: 'the chain is gone while its signed checkpoints remain' };
    return null;
  }

  async function accountExists(accountId: string): Promise<boolean> {
    return (await db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst()) !== undefined;
  }

  /**
   * Every account's trail starts with its creation (account.created, in the creating
   * transaction), and retention moves the start past what it prunes without taking the head
   * back: an account that has never sealed a record and has none pending lost its whole trail,
   * head and all. The platform's trail has no creation record and may be empty.
   */
  async function trailEmptied(accountId: string, headSeq: number, pending: number): Promise<ChainProblem | null> {
    if (headSeq > 0 || pending > 0 || accountId === PLATFORM_ACCOUNT) return null;
    if (!(await accountExists(accountId))) return null;
    return { kind: 'removed', seq: 1, id: null, detail: 'the account’s trail is empty, yet every account’s trail starts with its creation' };
  }

  async function currentHead(accountId: string): Promise<number> {
    const chain = await db.selectFrom('audit_chains').select('head_seq').where('account_id', '=', accountId).executeTakeFirst();
    return chain ? Number(chain.head_seq) : 0;
  }

  /**
   * Retention signs where it cut the chain (retention.ts): a chain that starts after its first
   * record without that statement, or with one for another place, had its oldest records removed
   * and its start moved by hand.
   */
  async function checkStart(accountId: string, chain: { first_seq: number; first_prev_hash: string; first_jws: string | null }): Promise<ChainProblem | null> {
    // Renumbering what is left after deleting the oldest records moves no start past 1: only the
    // genesis value, which no record's hash can stand for, shows the chain begins at the beginning.
    if (chain.first_seq <= 1) {
      if (chain.first_prev_hash === genesisHash(accountId)) return null;
      return { kind: 'removed', seq: 1, id: null, detail: 'the chain starts at 1 but does not start from the account’s genesis: its oldest records are gone and the rest renumbered' };
    }
    const removed = (why: string): ChainProblem => ({ kind: 'removed', seq: chain.first_seq - 1, id: null, detail: `the records before ${chain.first_seq} are gone, and ${why}` });
    if (chain.first_jws === null) return removed('no signed statement of retention says it pruned them');
    const signed = await signedClaims<{ sub?: string; first_seq?: number; first_prev_hash?: string }>(chain.first_jws, START_TYPE);
    if (signed.failed === 'unknown_key') return removed('the statement of their pruning names no signing key of this server');
    if (signed.failed) return removed('the statement of their pruning does not verify');
    const { claims } = signed;
    if (claims.sub !== accountId || claims.first_seq !== chain.first_seq || claims.first_prev_hash !== chain.first_prev_hash) {
      return removed('retention signed another start than the one recorded');
    }
    return null;
  }

  /**
   * The claims of a JWS of `type` signed by one of this server's keys, or why not: its header
   * names no key (`unreadable`), a key that is not this server's (`unknown_key`, with its kid), or
   * the signature or type does not hold (`unverified`).
   */
  async function signedClaims<T>(jws: string, type: string): Promise<{ failed?: undefined; claims: T } | { failed: 'unreadable' | 'unverified' } | { failed: 'unknown_key'; kid: string }> {
    const kid = signingKeyOf(jws);
    if (kid === undefined) return { failed: 'unreadable' };
    const key = await keyOf(kid);
    if (!key) return { failed: 'unknown_key', kid };
    try {
      const { payload, protectedHeader } = await compactVerify(jws, key);
      if (protectedHeader.typ !== type) return { failed: 'unverified' };
      return { claims: JSON.parse(new TextDecoder().decode(payload)) as T };
    } catch {
      return { failed: 'unverified' };
    }
  }

  async function checkCheckpoints(accountId: string, firstSeq: number, headSeq: number, hashAt: Map<number, string>) {
    const rows = await db.selectFrom('audit_checkpoints').selectAll().where('account_id', '=', accountId).where('seq', '>=', firstSeq).orderBy('seq').execute();
    let verified = 0;
    for (const cp of rows) {
      const seq = Number(cp.seq);
      // Past the head the walk read: signed over records sealed since, if the chain has grown that
      // far now. A chain cut short behind its checkpoints has not, and is checked (and fails) below.
      if (seq > headSeq && (await currentHead(accountId)) >= seq) continue;
      const signed = await signedClaims<{ sub?: string; seq?: number; hash?: string }>(cp.jws, CHECKPOINT_TYPE);
      // Signing keys are kept (their public part) for as long as anything they signed may be
      // checked: a checkpoint naming a key that is not there, or not this server's, was rewritten.
      if (signed.failed === 'unknown_key') return { verified, problem: { kind: 'checkpoint', seq, id: null, detail: `a checkpoint names a signing key (${signed.kid}) this server did not make` } as ChainProblem };
      // A header that names no key was not written by a signer: the row was altered.
      if (signed.failed) return { verified, problem: { kind: 'checkpoint', seq, id: null, detail: 'a checkpoint’s signature does not verify' } as ChainProblem };
      const { claims } = signed;
      if (claims.sub !== accountId || claims.seq !== seq || claims.hash !== cp.hash) {
        return { verified, problem: { kind: 'checkpoint', seq, id: null, detail: 'a checkpoint’s row differs from what was signed' } as ChainProblem };
      }
      const at = hashAt.get(seq);
      if (at !== cp.hash) {
        return { verified, problem: { kind: 'checkpoint', seq, id: null, detail: `the chain no longer passes through the hash signed at ${seq}: it was rewritten` } as ChainProblem };
      }
      verified += 1;
    }
    return { verified, problem: null };
  }

  async function verifyAccount(accountId: string, anchor?: ChainAnchor): Promise<ChainReport> {
    const stored = await db.selectFrom('audit_chains').selectAll().where('account_id', '=', accountId).executeTakeFirst();
    const pendingRow = await db
      .selectFrom('audit_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .where('seq', 'is', null)
      .executeTakeFirstOrThrow();
    const pending = Number(pendingRow.n);
    const chain = stored
      ? { first_seq: Number(stored.first_seq), first_prev_hash: stored.first_prev_hash, first_jws: stored.first_jws, head_seq: Number(stored.head_seq), head_hash: stored.head_hash }
      : undefined;
    if (!chain) {
      const problem = (await headRemoved(accountId)) ?? (await trailEmptied(accountId, 0, pending)) ?? (anchor ? anchorProblem(anchor, { first_seq: 1, head_seq: 0 }, new Map()) : null);
      return { account: accountId, ok: problem === null, records: 0, first_seq: 1, head_seq: 0, head_hash: null, checkpoints: { verified: 0 }, pending, detached: 0, problem };
    }
    const startProblem = await checkStart(accountId, chain);
    const walked = await walk(accountId, chain);
    const cps = startProblem || walked.problem ? { verified: 0, problem: null } : await checkCheckpoints(accountId, chain.first_seq, chain.head_seq, walked.hashAt);
    const problem = startProblem ?? walked.problem ?? cps.problem ?? (await trailEmptied(accountId, chain.head_seq, pending)) ?? (anchor ? anchorProblem(anchor, chain, walked.hashAt) : null);
    return {
      account: accountId,
      ok: problem === null,
      records: walked.records,
      first_seq: chain.first_seq,
      head_seq: chain.head_seq,
      head_hash: chain.head_seq > 0 ? chain.head_hash : null,
      checkpoints: { verified: cps.verified },
      pending,
      detached: walked.detached,
      problem,
    };
  }

  /**
   * Verifies `accountId`'s chain, or every chain when undefined. An account named that neither
   * exists nor left anything in the trail is refused (404 account_not_found): reporting it ok
   * would pass a mistyped id as a verified chain. An `anchor` (with `accountId` only) must lie on
   * that account's chain.
   */
  async function verify(accountId?: string, anchor?: ChainAnchor): Promise<{ ok: boolean; chains: ChainReport[] }> {
    if (anchor !== undefined && accountId === undefined) throw problem('validation_failed', { detail: 'an anchor belongs to one account’s chain: name the account' });
    if (accountId !== undefined) {
      const report = await verifyAccount(accountId, anchor);
      const leftNothing = report.ok && report.head_seq === 0 && report.pending === 0;
      if (leftNothing && accountId !== PLATFORM_ACCOUNT && !(await accountExists(accountId))) {
        throw problem('account_not_found', { detail: `No account ${accountId}, and no audit records of one` });
      }
      return { ok: report.ok, chains: [report] };
    }
    const accounts = [
      ...new Set([
        ...(await db.selectFrom('audit_chains').select('account_id').execute()).map((r) => r.account_id),
        // Every account with records, sealed or not, and with checkpoints: a chain whose head
        // row was deleted is still walked, and reported. (Each half reads its own index.)
        ...(await db.selectFrom('audit_events').select('account_id').distinct().where('seq', 'is not', null).execute()).map((r) => r.account_id),
        ...(await db.selectFrom('audit_events').select('account_id').distinct().where('seq', 'is', null).execute()).map((r) => r.account_id),
        ...(await db.selectFrom('audit_checkpoints').select('account_id').distinct().execute()).map((r) => r.account_id),
      ]),
    ].sort();
    const chains: ChainReport[] = [];
    for (const account of accounts) chains.push(await verifyAccount(account));
    return { ok: chains.every((c) => c.ok), chains };
  }

  return { verify, verifyAccount };
}

export type AuditVerifier = ReturnType<typeof createAuditVerifier>;
