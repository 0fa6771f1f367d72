/** The markdown table every scenario writes into. */
import os from 'node:os';

export interface Row {
  scenario: string;
  subject: string;
  database: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  peakRssMiB?: number;
  /** e.g. "0.91 × ceiling" */
  ratio?: string;
  /** what the ratio must reach, e.g. "≥ 0.8" */
  target?: string;
  pass?: boolean;
}

/**
 * The middle element of `items` by `key` (the upper one of an even count): the round a ratio is
 * reported from when a scenario measures several rounds.
 */
export function median<T>(items: readonly T[], key: (item: T) => number): T {
  return [...items].sort((a, b) => key(a) - key(b))[Math.floor(items.length / 2)]!;
}

export function machineLine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
}

export function renderTable(rows: Row[]): string {
  const header = '| scenario | subject | db | req/s | p50 ms | p99 ms | non-2xx | peak RSS MiB | ratio | target | ok |';
  const rule = '|---|---|---|---:|---:|---:|---:|---:|---|---|---|';
  const lines = rows.map(
    (r) =>
      `| ${r.scenario} | ${r.subject} | ${r.database} | ${r.requestsPerSecond} | ${r.p50Ms} | ${r.p99Ms} | ${r.non2xx} | ${r.peakRssMiB ?? ''} | ${r.ratio ?? ''} | ${r.target ?? ''} | ${r.pass === undefined ? '' : r.pass ? 'yes' : 'NO'} |`,
  );
  return [header, rule, ...lines].join('\n');
}
