/**
 * Prometheus metrics on prom-client, rendered in the text exposition format (version 0.0.4).
 * Rules held here:
 * - each app owns one Registry, never prom-client's global one, so several apps run in one
 *   process and each reports only what it counted;
 * - a metric is declared with its label names; declaring a name again with the same type and
 *   label names gives back the metric already declared (the payment routes and the payout
 *   processor both count payout transitions), anything else is a programming error;
 * - a gauge measured at scrape time that fails (e.g. the database is down) keeps its last
 *   value, and the scrape still answers;
 * - on the request path a labelled series is bound once (`bindCounter`, `bindHistogram`) and then
 *   costs a few additions, as little as counting can.
 * The process and runtime metrics and gatehouse_build_info are added by `measureProcess`, where
 * a process serves /metrics.
 */
import fs from 'node:fs';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type LabelValues } from 'prom-client';
import type { DatabaseKind } from './db/dialect.ts';

export const LATENCY_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Declared = Counter<string> | Gauge<string> | Histogram<string>;

export class MetricsRegistry {
  readonly registry = new Registry();

  /** The media type of `render()`'s text. */
  get contentType(): string {
    return this.registry.contentType;
  }

  counter<L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    return this.#declare(Counter, name, labelNames, () => new Counter<L>({ name, help, labelNames, registers: [this.registry] }));
  }

  /**
   * A gauge; with `measure`, set at each scrape (queue depth, pool usage), and then declared
   * once only: a second measure would never run. A failed measure leaves the gauge as it was.
   */
  gauge<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
    measure?: (gauge: Gauge<L>) => Promise<void> | void,
  ): Gauge<L> {
    if (measure && this.registry.getSingleMetric(name)) throw new Error(`metric ${name} is measured at scrape time and declared once`);
    const collect = measure && measuredOrKept(measure);
    return this.#declare(Gauge, name, labelNames, () => new Gauge<L>({ name, help, labelNames, registers: [this.registry], collect }));
  }

  histogram<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
    buckets: readonly number[] = LATENCY_BUCKETS_SECONDS,
  ): Histogram<L> {
    return this.#declare(Histogram, name, labelNames, () => new Histogram<L>({ name, help, labelNames, buckets: [...buckets], registers: [this.registry] }));
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  #declare<M extends Declared>(type: abstract new (...args: never[]) => Declared, name: string, labelNames: readonly string[], create: () => M): M {
    const existing = this.registry.getSingleMetric(name) as (Declared & { labelNames?: readonly string[] }) | undefined;
    if (existing === undefined) return create();
    if (!(existing instanceof type) || !sameLabelNames(existing.labelNames ?? [], labelNames)) {
      throw new Error(`metric ${name} is already declared as another type or with other labels`);
    }
    return existing as M;
  }
}

function sameLabelNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name) => b.includes(name));
}

function measuredOrKept<L extends string>(measure: (gauge: Gauge<L>) => Promise<void> | void) {
  return async function collect(this: Gauge<L>): Promise<void> {
    try {
      await measure(this);
    } catch {
      // The gauge keeps its last value: one failing source must not take the whole scrape down.
    }
  };
}

/**
 * One labelled series of `counter`, resolved once. prom-client's label children (`labels()`)
 * build and look up the key of their label values on every call, about 0.7 µs of CPU each: on
 * the request path, two of them cost a twentieth of serving a /healthz. A bound series holds
 * the entry prom-client keeps for its labels and adds to it; the metric is still prom-client's
 * (rendering, `get()`, `remove()` see the same numbers).
 */
export function bindCounter<L extends string>(counter: Counter<L>, labels: LabelValues<L>): { inc(by?: number): void } {
  counter.inc(labels, 0); // creates the series if it is new, changes nothing otherwise
  const series = storedSeries<{ value: number }>(counter, labels, (s) => typeof s.value === 'number');
  return {
    inc: (by = 1) => {
      series.value += by;
    },
  };
}

/** One labelled series of `histogram`, resolved once (see bindCounter). */
export function bindHistogram<L extends string>(histogram: Histogram<L>, labels: LabelValues<L>): { observe(value: number): void } {
  // prom-client counts each observation in the first bucket that holds it and cumulates when rendering.
  const bounds = (histogram as unknown as { upperBounds?: readonly number[] }).upperBounds ?? [];
  const keys = bounds.map(String);
  const fits = (s: Partial<HistogramSeries>) =>
    typeof s.sum === 'number' && typeof s.count === 'number' && keys.every((key) => typeof s.bucketValues?.[key] === 'number');
  // Another bound series may share these labels (one per status shares its route's latency):
  // zero() would empty it, so only a new series is created.
  if (findSeries(histogram, labels) === undefined) histogram.zero(labels);
  const stored = storedSeries<HistogramSeries>(histogram, labels, fits);
  return {
    observe: (value: number) => {
      stored.sum += value;
      stored.count += 1;
      for (let i = 0; i < bounds.length; i++) {
        if (value <= bounds[i]!) {
          stored.bucketValues[keys[i]!]! += 1;
          return;
        }
      }
    },
  };
}

interface HistogramSeries {
  sum: number;
  count: number;
  bucketValues: Record<string, number>;
}

/** The entry prom-client 15 keeps for one label set, if there is one. */
function findSeries(metric: Counter<string> | Histogram<string>, labels: LabelValues<string>): Record<string, unknown> | undefined {
  const stored = (metric as unknown as { hashMap?: Record<string, { labels?: LabelValues<string> }> }).hashMap ?? {};
  return Object.values(stored).find((s) => s.labels !== undefined && sameLabels(s.labels, labels));
}

/** The entry of a label set, of the form expected; refuses loudly if prom-client's storage ever changes. */
function storedSeries<S>(metric: Counter<string> | Histogram<string>, labels: LabelValues<string>, fits: (entry: Partial<S>) => boolean): S {
  const entry = findSeries(metric, labels) as Partial<S> | undefined;
  if (entry === undefined || !fits(entry)) {
    throw new Error(`prom-client keeps the series of ${(metric as { name?: string }).name} in another form: bindCounter and bindHistogram need updating`);
  }
  return entry as S;
}

function sameLabels(a: LabelValues<string>, b: LabelValues<string>): boolean {
  const names = Object.keys(b);
  return Object.keys(a).length === names.length && names.every((name) => String(a[name]) === String(b[name]));
}

/** The version in package.json: the release running. */
export function releaseVersion(): string {
  const manifest = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return manifest.version ?? 'unknown';
}

/**
 * The process and runtime metrics prom-client collects (CPU, memory, heap spaces, event-loop
 * lag, garbage collection, open handles and file descriptors, start time) and
 * `gatehouse_build_info{version,node,database} 1`, into this app's registry.
 */
export function measureProcess(metrics: MetricsRegistry, build: { version: string; database: DatabaseKind }): void {
  collectDefaultMetrics({ register: metrics.registry });
  metrics
    .gauge('gatehouse_build_info', 'Always 1: the release, Node.js version and database of this process', ['version', 'node', 'database'])
    .set({ version: build.version, node: process.version, database: build.database }, 1);
}
