/**
 * Prometheus metrics in the text exposition format (version 0.0.4), served on the admin
 * listener at /metrics. Counters, gauges and histograms with labels; each app owns its own
 * registry, so there is no process-wide state. Gauges may be computed at scrape time
 * (queue depth, pool usage) through `collect` callbacks.
 */

type Labels = Record<string, string>;

function labelKey(labels: Labels): string {
  const names = Object.keys(labels).sort();
  return names.map((n) => `${n}="${escapeLabel(labels[n]!)}"`).join(',');
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

interface Metric {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  render(): string[];
}

export class Counter implements Metric {
  readonly type = 'counter';
  readonly #values = new Map<string, number>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels: Labels = {}, by = 1): void {
    const key = labelKey(labels);
    this.#values.set(key, (this.#values.get(key) ?? 0) + by);
  }
  /** One labelled series, resolved once, for hot paths that count the same labels often. */
  series(labels: Labels): { inc(by?: number): void } {
    const key = labelKey(labels);
    return {
      inc: (by = 1) => {
        this.#values.set(key, (this.#values.get(key) ?? 0) + by);
      },
    };
  }
  get(labels: Labels = {}): number {
    return this.#values.get(labelKey(labels)) ?? 0;
  }
  render(): string[] {
    return [...this.#values].map(([key, value]) => `${this.name}${key ? `{${key}}` : ''} ${value}`);
  }
}

export class Gauge implements Metric {
  readonly type = 'gauge';
  readonly #values = new Map<string, number>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  set(value: number, labels: Labels = {}): void {
    this.#values.set(labelKey(labels), value);
  }
  render(): string[] {
    return [...this.#values].map(([key, value]) => `${this.name}${key ? `{${key}}` : ''} ${value}`);
  }
}

export const LATENCY_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Histogram implements Metric {
  readonly type = 'histogram';
  readonly #series = new Map<string, { counts: number[]; sum: number; count: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: readonly number[] = LATENCY_BUCKETS_SECONDS,
  ) {}
  observe(value: number, labels: Labels = {}): void {
    this.series(labels).observe(value);
  }
  /** One labelled series, resolved once, for hot paths that observe the same labels often. */
  series(labels: Labels): { observe(value: number): void } {
    const key = labelKey(labels);
    let series = this.#series.get(key);
    if (!series) {
      series = { counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    const target = series;
    const buckets = this.buckets;
    return {
      observe: (value: number) => {
        for (let i = 0; i < buckets.length; i++) if (value <= buckets[i]!) target.counts[i]!++;
        target.sum += value;
        target.count++;
      },
    };
  }
  render(): string[] {
    const lines: string[] = [];
    for (const [key, series] of this.#series) {
      const prefix = key ? `${key},` : '';
      this.buckets.forEach((bound, i) => lines.push(`${this.name}_bucket{${prefix}le="${bound}"} ${series.counts[i]}`));
      lines.push(`${this.name}_bucket{${prefix}le="+Inf"} ${series.count}`);
      lines.push(`${this.name}_sum${key ? `{${key}}` : ''} ${series.sum}`);
      lines.push(`${this.name}_count${key ? `{${key}}` : ''} ${series.count}`);
    }
    return lines;
  }
}

export class MetricsRegistry {
  readonly #metrics = new Map<string, Metric>();
  readonly #collectors: Array<() => Promise<void> | void> = [];

  counter(name: string, help: string): Counter {
    return this.#register(new Counter(name, help));
  }
  gauge(name: string, help: string): Gauge {
    return this.#register(new Gauge(name, help));
  }
  histogram(name: string, help: string, buckets?: readonly number[]): Histogram {
    return this.#register(new Histogram(name, help, buckets));
  }
  /** Runs before each scrape, to refresh gauges computed from the database or a pool. */
  collect(collector: () => Promise<void> | void): void {
    this.#collectors.push(collector);
  }

  async render(): Promise<string> {
    await Promise.all(
      this.#collectors.map(async (collect) => {
        try {
          await collect();
        } catch {
          // A failing collector (e.g. the database is down) leaves its gauges at their last value.
        }
      }),
    );
    const out: string[] = [];
    for (const metric of this.#metrics.values()) {
      out.push(`# HELP ${metric.name} ${metric.help}`, `# TYPE ${metric.name} ${metric.type}`, ...metric.render());
    }
    return `${out.join('\n')}\n`;
  }

  #register<M extends Metric>(metric: M): M {
    const existing = this.#metrics.get(metric.name);
    if (existing) return existing as M;
    this.#metrics.set(metric.name, metric);
    return metric;
  }
}
