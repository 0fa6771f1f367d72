/**
 * The secrets key, and what it protects at rest.
 *
 * Some secrets must be recovered, not only checked: webhook secrets (to sign), the server's
 * signing and token MAC keys, the generated cursor key, the stored answers that show a secret
 * (to replay them under their Idempotency-Key). They are stored sealed with
 * AES-256-GCM under sub-keys derived (HKDF) per purpose from one secrets key, so sealing one
 * kind of thing never shares a key with another.
 *
 * The key is never kept in the database it protects: a copy of the database, a backup of it or
 * an export would otherwise open everything sealed in it.
 * - GATEHOUSE_SECRETS_KEY when set (every node of a deployment the same).
 * - On PostgreSQL it must be set: the nodes share nothing but the database, and the key cannot
 *   live there. An installation that kept a generated key in its `settings` table (releases
 *   before this rule) goes on using it, and says at every start how to move it out.
 * - On an SQLite file it is generated on first start into a file beside the database
 *   (`<database>.secrets-key`, mode 0600), where every command that opens that database finds it.
 *   A key an earlier release kept in the `settings` table is moved there.
 * - An in-memory SQLite database gets a key that lives as long as it does.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import { ConfigError } from '../config.ts';
import { safeEqual } from './crypto.ts';
import { logEvent, type LogEventName } from './log-events.ts';
import type { Database, Db } from './db/database.ts';

/** The `settings` row where releases before the rules above kept a generated key. */
export const SECRETS_KEY_SETTING = 'secrets_key';

export interface Sealer {
  seal(plaintext: string, associated?: string): string;
  /** undefined when the box was altered, sealed under another key or for other associated data. */
  open(box: string, associated?: string): string | undefined;
}

export function createSealer(key: Buffer, purpose: string): Sealer {
  const subkey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `gatehouse ${purpose}`, 32));
  return {
    seal(plaintext, associated = '') {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', subkey, iv);
      cipher.setAAD(Buffer.from(associated));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(box, associated = '') {
      const raw = Buffer.from(box, 'base64url');
      if (raw.length < 28) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', subkey, raw.subarray(0, 12));
        decipher.setAAD(Buffer.from(associated));
        decipher.setAuthTag(raw.subarray(12, 28));
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}

const KEY_BYTES = 32;

/** Where a generated key of an SQLite database file is kept. */
export function secretsKeyFileOf(databaseFile: string): string {
  return `${databaseFile}.secrets-key`;
}

/**
 * A short public name of a key (not a secret: HKDF output, one-way), for messages and export
 * headers that must say which key something was sealed under without showing it.
 */
export function secretsKeyId(key: Buffer): string {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'gatehouse secrets key id', 9)).toString('base64url');
}

export interface SecretsKeyDeps {
  database: Database;
  /** GATEHOUSE_SECRETS_KEY (base64), when set. */
  configured: string | undefined;
  /** Told when a key is generated or moved, and warned while one is kept in the database. */
  log?: Pick<FastifyBaseLogger, 'info' | 'warn'>;
}

const inMemoryKeys = new WeakMap<Database, Buffer>();

/** The installation's secrets key: configured, or generated where the rules above put it. */
export async function loadSecretsKey(deps: SecretsKeyDeps): Promise<Buffer> {
  const { database, configured, log } = deps;
  const stored = await keptInDatabase(database.db);
  if (configured !== undefined) {
    const key = Buffer.from(configured, 'base64');
    if (stored !== undefined) await forgetStoredKey(deps, key, stored);
    return key;
  }
  if (database.dialect.name === 'postgres') {
    if (stored === undefined) {
      throw new ConfigError(
        'GATEHOUSE_SECRETS_KEY',
        'required with PostgreSQL: every node must hold the same key, and it is not kept in the database it protects (generate one with openssl rand -base64 32)',
        'unset',
      );
    }
    keyEvent(
      log,
      'secrets.key_in_database',
      { key_id: secretsKeyId(stored), configured_key_id: null },
      "the secrets key is kept in the database's settings table, so a copy of the database opens every secret sealed in it: set GATEHOUSE_SECRETS_KEY on every node to that value and restart them; the database's copy is then deleted (docs/OPERATIONS.md)",
    );
    return stored;
  }
  if (database.location === ':memory:') {
    const key = inMemoryKeys.get(database) ?? randomBytes(KEY_BYTES);
    inMemoryKeys.set(database, key);
    return key;
  }
  const file = secretsKeyFileOf(database.location);
  if (stored !== undefined) {
    // Kept in the database by an earlier release: the file takes it, then the row goes.
    const inFile = readKeyFile(file);
    if (inFile !== undefined && !safeEqual(inFile.toString('base64'), stored.toString('base64'))) {
      throw new Error(`${file} holds another secrets key than the one kept in the database (${secretsKeyId(stored)}); keep the one that sealed the data and remove the other`);
    }
    if (inFile === undefined) createKeyFile(file, stored);
    await database.db.deleteFrom('settings').where('name', '=', SECRETS_KEY_SETTING).execute();
    keyEvent(log, 'secrets.key_moved_to_file', { file, key_id: secretsKeyId(stored) }, 'the secrets key was moved out of the database into its key file');
    return stored;
  }
  const existing = readKeyFile(file);
  if (existing !== undefined) return existing;
  const generated = createKeyFile(file, randomBytes(KEY_BYTES));
  if (generated.created) keyEvent(log, 'secrets.key_generated', { file, key_id: secretsKeyId(generated.key) }, 'secrets key generated; keep this file with the database, out of its backups');
  return generated.key;
}

/**
 * The key this installation already has, configured or kept, without generating or moving one:
 * for `gatehouse import`, which must not invent a key its data was not sealed under.
 */
export async function existingSecretsKey(deps: Pick<SecretsKeyDeps, 'database' | 'configured'>): Promise<Buffer | undefined> {
  const { database, configured } = deps;
  if (configured !== undefined) return Buffer.from(configured, 'base64');
  const stored = await keptInDatabase(database.db);
  if (stored !== undefined || database.dialect.name === 'postgres') return stored;
  if (database.location === ':memory:') return inMemoryKeys.get(database);
  return readKeyFile(secretsKeyFileOf(database.location));
}

/**
 * A key an earlier release kept in the database, now that one is configured: the copy is deleted
 * once the configured key is that same key (moving it into the setting is then complete);
 * another key is left for the operator, who is told, since data of that time may need it.
 */
async function forgetStoredKey(deps: SecretsKeyDeps, configured: Buffer, stored: Buffer): Promise<void> {
  if (safeEqual(configured.toString('base64'), stored.toString('base64'))) {
    await deps.database.db.deleteFrom('settings').where('name', '=', SECRETS_KEY_SETTING).execute();
    keyEvent(deps.log, 'secrets.key_removed_from_database', { key_id: secretsKeyId(stored) }, 'the copy of the secrets key kept in the database was deleted: GATEHOUSE_SECRETS_KEY holds it');
    return;
  }
  keyEvent(
    deps.log,
    'secrets.key_in_database',
    { key_id: secretsKeyId(stored), configured_key_id: secretsKeyId(configured) },
    "the database's settings table keeps a secrets key other than GATEHOUSE_SECRETS_KEY: delete the row once nothing needs it (docs/OPERATIONS.md)",
  );
}

/** A catalogued event about the key, when the caller gave a log (`export` and the audit commands give none). */
function keyEvent(log: SecretsKeyDeps['log'], event: LogEventName, fields: Record<string, unknown>, message: string): void {
  if (log) logEvent(log, event, fields, message);
}

async function keptInDatabase(db: Db): Promise<Buffer | undefined> {
  const row = await db.selectFrom('settings').select('value').where('name', '=', SECRETS_KEY_SETTING).executeTakeFirst();
  return row && Buffer.from(row.value, 'base64');
}

function readKeyFile(file: string): Buffer | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`${file} does not hold a secrets key (base64 of ${KEY_BYTES} bytes)`);
  return key;
}

/**
 * Writes the key file whole or not at all, and only if none is there: written to a file of its
 * own first, then linked into place, which fails when another process linked its key first (two
 * commands started at once on a new database), and then that key is the one used.
 */
function createKeyFile(file: string, key: Buffer): { key: Buffer; created: boolean } {
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  fs.writeFileSync(draft, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(draft, file);
    return { key, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { key: readKeyFile(file)!, created: false };
  } finally {
    fs.rmSync(draft, { force: true });
  }
}

const SEALED = 'sealed:';

/**
 * Key material stored in the database: sealed, with the row's name (a kid, a setting) as
 * associated data so a sealed value cannot be moved to another row. Values stored before keys
 * were sealed are plain and still read; they are sealed when next written.
 */
export interface KeyVault {
  seal(plaintext: string, name: string): string;
  /** The plaintext; throws, naming the setting to check, when the value was sealed under another key. */
  open(stored: string, name: string): string;
  /** Whether `stored` was sealed by this vault for `name`: only a holder of the secrets key can have written it. */
  isSealedHere(stored: string, name: string): boolean;
}

export function createKeyVault(key: Buffer): KeyVault {
  const sealer = createSealer(key, 'stored keys');
  const keyId = secretsKeyId(key);
  return {
    seal: (plaintext, name) => SEALED + sealer.seal(plaintext, name),
    open(stored, name) {
      if (!stored.startsWith(SEALED)) return stored;
      const plaintext = sealer.open(stored.slice(SEALED.length), name);
      if (plaintext === undefined) {
        throw new Error(
          `stored key ${name} cannot be opened: it was sealed under another secrets key than this one (key_id ${keyId}). ` +
            'Set GATEHOUSE_SECRETS_KEY to the key that sealed it (on SQLite it may be in the key file beside the database); ' +
            'after `gatehouse import`, that is the source installation\'s key, whose key_id the export\'s first line gives as sealed_under',
        );
      }
      return plaintext;
    },
    isSealedHere: (stored, name) => stored.startsWith(SEALED) && sealer.open(stored.slice(SEALED.length), name) !== undefined,
  };
}

/** The vault of an installation, under its secrets key. */
export async function openKeyVault(deps: SecretsKeyDeps): Promise<KeyVault> {
  return createKeyVault(await loadSecretsKey(deps));
}
