// The little of oidc-provider's API the benchmark peer uses (the package ships no types).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    /** Koa middleware around every request. */
    use(middleware: (ctx: { method: string; path: string; status: number; set(name: string, value: string): void }, next: () => Promise<void>) => Promise<void>): void;
  }
}
