/**
 * One declarative route table for every Fetch server piece (the checkout handler and the sandbox):
 * routes are data — a method, a path pattern such as `/api/v1/charges/:chargeId`, and whatever the
 * server attaches — and one matcher tells found, wrong method (with the methods that would do) or
 * no such path. Isomorphic and dependency-free, so the merchant-side handler stays light.
 */

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** The least a route carries; servers add their handler and options. */
export interface RouteShape {
  method: HttpMethod;
  /** Literal segments and `:name` parameters, each parameter one whole segment. */
  path: string;
}

export type RouteMatch<R extends RouteShape> =
  | { kind: 'found'; route: R; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: HttpMethod[] }
  /** The path has the route's shape but a parameter is not valid percent-encoding. */
  | { kind: 'malformed'; parameter: string }
  | { kind: 'not-found' };

/**
 * The parameters a path pattern names, each a string: `PathParams<'/links/:id/disable'>` is
 * `{ id: string }`. A route helper that knows its literal path can hand its handler these instead
 * of the table's `Record<string, string>`, since a found match sets every one of them.
 */
export type PathParams<Path extends string> = Record<ParameterNames<Path>, string>;

type ParameterNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParameterNames<Rest>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

interface CompiledRoute<R> {
  route: R;
  pattern: RegExp;
  names: string[];
}

const PARAMETER = /^:[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Compiled once; `match` is a linear scan in declaration order, so the first route that fits
 * wins — declare `/charges/verify-qr-slip` before `/charges/:chargeId`.
 */
export class RouteTable<R extends RouteShape> {
  readonly routes: readonly R[];
  readonly #compiled: CompiledRoute<R>[];

  constructor(routes: readonly R[]) {
    this.routes = routes;
    this.#compiled = routes.map((route) => compile(route));
  }

  match(method: string, pathname: string): RouteMatch<R> {
    const allowed: HttpMethod[] = [];
    for (const { route, pattern, names } of this.#compiled) {
      const found = pattern.exec(pathname);
      if (!found) continue;
      if (route.method !== method) {
        if (!allowed.includes(route.method)) allowed.push(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      for (const [index, name] of names.entries()) {
        const raw = found[index + 1] ?? '';
        try {
          params[name] = decodeURIComponent(raw);
        } catch {
          return { kind: 'malformed', parameter: name };
        }
      }
      return { kind: 'found', route, params };
    }
    return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
  }
}

function compile<R extends RouteShape>(route: R): CompiledRoute<R> {
  if (!route.path.startsWith('/')) throw new Error(`route path must start with "/": ${route.path}`);
  const names: string[] = [];
  const source = route.path
    .split('/')
    .map((segment) => {
      if (PARAMETER.test(segment)) {
        names.push(segment.slice(1));
        return '([^/]+)';
      }
      if (segment.includes(':')) throw new Error(`a parameter must be a whole segment: ${route.path}`);
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}$`), names };
}
