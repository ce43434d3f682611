// One request of the relation suite: a route of the public API, a project and the query parameters as REST takes
// them. Every surface (REST, CSV, GraphQL, MCP) is driven from this one value, and its text is what a failure
// names: fast-check prints a counterexample with `fc.toStringMethod`, so a shrunk case reads as the request itself.
import fc from 'fast-check';

export type Route = 'summary' | 'timeseries' | 'breakdown' | 'searchSummary' | 'searchTimeseries' | 'searchBreakdown' | 'landingPages' | 'changes';

interface RouteInfo {
  /** Path under /api/v1/metrics/{project}/. */
  path: string;
  /** The MCP tool answering the same request (landing pages have none). */
  tool?: string;
  /** Whether `format=csv` is offered. */
  csv: boolean;
}

export const ROUTES: Readonly<Record<Route, RouteInfo>> = {
  summary: { path: 'summary', tool: 'get_site_summary', csv: false },
  timeseries: { path: 'timeseries', tool: 'get_site_timeseries', csv: true },
  breakdown: { path: 'dimension', tool: 'get_site_breakdown', csv: true },
  searchSummary: { path: 'search/summary', tool: 'get_search_summary', csv: false },
  searchTimeseries: { path: 'search/timeseries', tool: 'get_search_timeseries', csv: true },
  searchBreakdown: { path: 'search/dimension', tool: 'get_search_breakdown', csv: true },
  landingPages: { path: 'landing-pages', csv: true },
  changes: { path: 'insights/changes', tool: 'explain_change', csv: true },
};

export type Params = Readonly<Record<string, string>>;

export class ApiRequest {
  readonly route: Route;
  readonly project: string;
  readonly params: Params;

  constructor(route: Route, project: string, params: Record<string, string | undefined>) {
    this.route = route;
    this.project = project;
    this.params = Object.fromEntries(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
  }

  /** The same request with some parameters replaced (undefined removes one). */
  with(changes: Record<string, string | undefined>): ApiRequest {
    return new ApiRequest(this.route, this.project, { ...this.params, ...changes });
  }

  /** Another route of the same project with these parameters. */
  as(route: Route, params: Record<string, string | undefined>): ApiRequest {
    return new ApiRequest(route, this.project, params);
  }

  /** The REST path with its query, e.g. `/api/v1/metrics/acme-shop/dimension?dimension=country&period=28days`. */
  get path(): string {
    const query = new URLSearchParams(this.params).toString();
    return `/api/v1/metrics/${encodeURIComponent(this.project)}/${ROUTES[this.route].path}${query ? `?${query}` : ''}`;
  }

  /** The path as a person reads and pastes it: `,;=/:^$!@()*~` left readable, spaces and `&+#%` encoded. */
  toString(): string {
    const readable = (value: string) => encodeURIComponent(value).replace(/%(2C|3B|3D|2F|3A|5E|24|21|40|28|29|2A|7E|7C)/g, (escaped) => decodeURIComponent(escaped));
    const query = Object.entries(this.params).map(([k, v]) => `${k}=${readable(v)}`).join('&');
    return `GET /api/v1/metrics/${this.project}/${ROUTES[this.route].path}${query ? `?${query}` : ''}`;
  }

  [fc.toStringMethod](): string {
    return this.toString();
  }
}

/** A request and the surface it was read through, as a failure message names them. */
export function named(request: ApiRequest, surface: string): string {
  return `${request} [${surface}]`;
}

/** A drawn case that prints as `label` in a counterexample (the request(s) it will make). */
export function labelled<T extends object>(value: T, label: string): T {
  return Object.assign(value, { [fc.toStringMethod]: () => label });
}
