/**
 * docs/ARCHITECTURE.md names only what exists: every file path it quotes in backticks is a
 * file of the repository, every code symbol (camelCase or PascalCase, optionally
 * `Type.member`) is declared or used in src/ (or test/, for the test helpers it describes), and every GATEHOUSE_ setting is read somewhere.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname), '..', '..');
const DOC = 'docs/ARCHITECTURE.md';
const SKIP_DIRS = new Set(['node_modules', '.git', 'coverage', 'data']);

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(relative));
    else out.push(relative);
  }
  return out;
}

const files = filesUnder('.').map((f) => f.replace(/^\.\//, ''));
const dirs = new Set(files.flatMap((f) => f.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
const sources = (root: string) => files.filter((f) => f.startsWith(`${root}/`) && /\.(ts|mjs|js)$/.test(f)).map((f) => fs.readFileSync(path.join(ROOT, f), 'utf8'));
// Symbols are looked for in src/, and in test/ for the test helpers this file describes.
const codeText = [...sources('src'), ...sources('test')].join('\n');
const everyText = [...sources('src'), ...sources('test'), ...sources('bench'), ...sources('scripts'), fs.readFileSync(path.join(ROOT, '.ci/run'), 'utf8')].join('\n');

const quoted = [...fs.readFileSync(path.join(ROOT, DOC), 'utf8').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim());

/** A path: a file name with an extension we keep, or a folder ending in `/`, without spaces. */
const isPath = (token: string) =>
  !token.startsWith('/') && (/^[\w.\-/]+\.(ts|mjs|js|md|json|sql|yml|yaml)$/.test(token) || /^[\w.-]+(\/[\w.-]+)*\/$/.test(token));
/** Folders .gitignore names hold generated output (bench results, coverage): not in the tree. */
const ignored = fs
  .readFileSync(path.join(ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .filter((line) => line.endsWith('/'));
/** A code symbol: camelCase or PascalCase, optionally one `.member`. */
const isSymbol = (token: string) => /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)?(\(\))?$/.test(token) && /[a-z][A-Z]|^[A-Z][a-z]/.test(token) && !/^[A-Z][a-z]+-/.test(token);

function pathExists(token: string): boolean {
  if (ignored.some((folder) => token.startsWith(folder))) return true;
  const name = token.replace(/\/$/, '');
  if (token.endsWith('/')) return [...dirs].some((d) => d === name || d.endsWith(`/${name}`));
  return files.some((f) => f === name || f.endsWith(`/${name}`));
}

function symbolExists(token: string): boolean {
  const parts = token.replace(/\(\)$/, '').split('.');
  return parts.every((part) => new RegExp(`\\b${part.replace(/\$/g, '\\$')}\\b`).test(codeText));
}

describe(`${DOC} names what exists`, () => {
  it('every file and folder it quotes is in the repository', () => {
    const missing = [...new Set(quoted.filter(isPath))].filter((token) => !pathExists(token));
    assert.deepEqual(missing, [], `${DOC} quotes paths that do not exist`);
  });

  it('every code symbol it quotes is found in src/ or test/', () => {
    const missing = [...new Set(quoted.filter((t) => !isPath(t) && isSymbol(t)))].filter((token) => !symbolExists(token));
    assert.deepEqual(missing, [], `${DOC} quotes symbols that neither src/ nor test/ has`);
  });

  it('every GATEHOUSE_ setting it quotes is read somewhere', () => {
    const names = [...new Set(quoted.flatMap((t) => t.match(/\bGATEHOUSE_[A-Z0-9_]+/g) ?? []))];
    assert.deepEqual(names.filter((name) => !everyText.includes(name)), [], `${DOC} quotes settings nothing reads`);
  });
});
