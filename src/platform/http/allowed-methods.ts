/**
 * The methods a path has routes for, asked when a request matched none: RFC 9110 §15.5.6 answers
 * 405 with `Allow` when the resource exists under other methods, and 404 when it does not. A router
 * of fastify's own make and options answers, so the path is decoded and matched exactly as routing
 * does it; no URL text is compared.
 */
import Router from 'find-my-way';

/** The options fastify's router is built with (server.ts); the shadow router must match it. */
export const ROUTER_OPTIONS = { ignoreTrailingSlash: false, maxParamLength: 256 } as const;

const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'] as const;

/**
 * `routes` is read when first asked, once every route is registered (fastify refuses routes
 * once it is ready, and no request is answered before that).
 */
export function allowedMethods(routes: readonly { method: string; url: string }[]): (path: string) => string[] {
  let router: Router.Instance<Router.HTTPVersion.V1> | undefined;
  const build = () => {
    const built = Router(ROUTER_OPTIONS);
    const seen = new Set<string>();
    for (const { method, url } of routes) {
      // fastify answers HEAD wherever it answers GET.
      for (const m of method === 'GET' ? ['GET', 'HEAD'] : [method]) {
        if (seen.has(`${m} ${url}`)) continue;
        seen.add(`${m} ${url}`);
        built.on(m as Router.HTTPMethod, url, () => {});
      }
    }
    return built;
  };
  return (path) => {
    router ??= build();
    return METHODS.filter((method) => router!.find(method, path) !== null);
  };
}
