/**
 * Writes the two API documents (public and admin) as the server generates them, to
 * openapi/public.json and openapi/admin.json, from a throwaway instance on a temporary SQLite
 * database with default settings, and the TypeScript types of the client generated from each
 * (openapi-typescript) to clients/typescript/public.d.ts and admin.d.ts. With --check it writes
 * nothing and fails when a kept file differs from what would be generated now.
 *
 *   node --import tsx scripts/openapi.ts [--check]      (npm run openapi, npm run openapi:check)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../src/config.ts';
import { createGatehouse } from '../src/app.ts';
import openapiTS, { astToString } from 'openapi-typescript';

const root = path.resolve(import.meta.dirname, '..');

export async function generateDocuments(): Promise<{ public: unknown; admin: unknown }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-openapi-'));
  try {
    const config = loadConfig({
      GATEHOUSE_DATABASE_URL: `sqlite:${path.join(dataDir, 'gatehouse.db')}`,
      GATEHOUSE_DATA_DIR: dataDir,
      GATEHOUSE_ADMIN_TOKEN: 'openapi-export-token-0123456789abcdef',
      GATEHOUSE_IN_PROCESS_WORKERS: 'off',
      GATEHOUSE_LOG_LEVEL: 'error',
    });
    const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
    const gatehouse = await createGatehouse(config, { logDestination: quiet });
    try {
      await gatehouse.publicServer.ready();
      await gatehouse.adminServer.ready();
      return { public: gatehouse.publicServer.swagger(), admin: gatehouse.adminServer.swagger() };
    } finally {
      await gatehouse.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export const documentText = (document: unknown) => `${JSON.stringify(document, null, 2)}\n`;

/** The client's types for one document, as openapi-typescript writes them. */
export async function clientTypes(document: unknown): Promise<string> {
  const nodes = await openapiTS(document as never, { alphabetize: true });
  return `/* Generated from openapi/ by npm run openapi (openapi-typescript); do not edit. */\n\n${astToString(nodes)}`;
}

async function main(argv: string[]): Promise<number> {
  const check = argv.includes('--check');
  const documents = await generateDocuments();
  const files: Array<[string, string]> = [];
  for (const [name, document] of Object.entries(documents)) {
    files.push([path.join(root, 'openapi', `${name}.json`), documentText(document)]);
    files.push([path.join(root, 'clients', 'typescript', `${name}.d.ts`), await clientTypes(document)]);
  }
  let stale = 0;
  for (const [file, text] of files) {
    if (check) {
      const kept = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      if (kept !== text) {
        stale++;
        process.stderr.write(`${path.relative(root, file)} is not what the server generates now: run npm run openapi and commit it\n`);
      }
    } else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
    }
  }
  return stale === 0 ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await main(process.argv.slice(2));
}
