/** Load generation with autocannon, reduced to the figures the reports compare. */
import fs from 'node:fs';
import autocannon from 'autocannon';
import { cpuBetween, type PostgresCpu } from './postgres-cpu.ts';

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  durationSeconds?: number;
  /** Builds each request anew (e.g. a fresh Idempotency-Key). */
  setupRequest?: (request: { method?: string; path?: string; headers?: Record<string, string>; body?: string }) => object;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  total: number;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections ?? 50,
    duration: options.durationSeconds ?? Number(process.env.BENCH_SECONDS ?? 10),
    requests: options.setupRequest ? [{ setupRequest: options.setupRequest as never }] : undefined,
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
  };
}

/** A short run to warm up JIT and caches before measuring. */
export async function warmUp(options: LoadOptions): Promise<void> {
  await load({ ...options, durationSeconds: 2 });
}

/** CPU time (user + system) the process has used, in microseconds. */
export function cpuMicros(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * A warmed-up load against the process `pid`, with the server's CPU time per request: on a
 * shared, busy machine req/s moves with the neighbours, CPU per request much less. With
 * `postgres`, also the CPU time per request of the PostgreSQL backends serving that process.
 */
export async function measureWithCpu(
  pid: number,
  options: LoadOptions,
  extra: { postgres?: PostgresCpu } = {},
): Promise<LoadResult & { cpu: string; cpuMicrosPerRequest: number; postgresMicrosPerRequest?: number }> {
  await warmUp(options);
  const postgresBefore = await extra.postgres?.sample();
  const before = cpuMicros(pid);
  const result = await load(options);
  const cpuMicrosPerRequest = Math.round((cpuMicros(pid) - before) / Math.max(1, result.total));
  if (extra.postgres === undefined || postgresBefore === undefined) return { ...result, cpu: `${cpuMicrosPerRequest} µs CPU/req`, cpuMicrosPerRequest };
  const postgresMicrosPerRequest = Math.round(cpuBetween(postgresBefore, await extra.postgres.sample()) / Math.max(1, result.total));
  return { ...result, cpu: `${cpuMicrosPerRequest} + PostgreSQL ${postgresMicrosPerRequest} µs CPU/req`, cpuMicrosPerRequest, postgresMicrosPerRequest };
}
