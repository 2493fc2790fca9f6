/**
 * The Elysia app a server's routes are registered on, shared by every server of one
 * process whose routes are the same paths in the same order.
 *
 * Why shared: building an app and compiling its router costs about 6 ms of CPU (adding
 * some 400 routes, then the router's build and its generated fetch function on the first
 * request), the larger part of starting an in-process test server; the suite starts
 * about a thousand. Nothing of a server is in the Elysia app itself: each route's handler
 * looks up, by the request, the table of the server it was handed to (`Routes.finish`'s
 * `fetch` records it), and calls that server's handler. A process with one server (every
 * real one) builds one app, as before.
 */
import { Elysia } from "elysia";
import type { Method } from "./route";

/** A route's own answer, once the router matched it. */
export type Handler = (request: Request, params: Record<string, string>) => Response | Promise<Response>;
/** What the shared app's error hook hands back to the server the request was for. */
export type ErrorHandler = (code: string | number, error: unknown, request: Request) => Response;

/** What a server answers requests through (tests call `handle`; the server's socket `fetch`). */
export interface HttpApp {
  /** Answers synchronously where the route did (wire/pipeline.ts's sync answers). */
  fetch(request: Request): Response | Promise<Response>;
  handle(request: Request): Promise<Response>;
  /** Every registered route, as Elysia lists them (METHOD, path template; "ALL" for a catch-all). */
  readonly routes: readonly { method: string; path: string }[];
}

interface Table {
  handlers: Handler[];
  onError: ErrorHandler;
}

interface Shape {
  app: Elysia<any, any, any, any, any, any, any>;
  /** Each request's server, from the moment it was handed to that server's fetch. */
  tables: WeakMap<Request, Table>;
}

/** One app per shape (the paths and methods in order); in practice one or two per process. */
const shapes = new Map<string, Shape>();

/** A server's routes as they are declared, in the order the router must see them. */
export class Routes {
  private readonly entries: { method: Method | "ALL"; path: string; handler: Handler }[] = [];

  route(method: Method, path: string, handler: Handler): void {
    this.entries.push({ method, path, handler });
  }

  /** A catch-all for every method under `path` (a trailing `*` matches the rest). */
  all(path: string, handler: (request: Request) => Response | Promise<Response>): void {
    this.entries.push({ method: "ALL", path, handler });
  }

  /** The app for these routes: this server's fetch over the shape's shared Elysia app. */
  finish(onError: ErrorHandler): HttpApp {
    const shape = this.shape();
    const table: Table = { handlers: this.entries.map((e) => e.handler), onError };
    const { app, tables } = shape;
    const fetch = (request: Request) => {
      tables.set(request, table);
      return app.fetch(request);
    };
    return {
      fetch,
      handle: async (request) => fetch(request),
      get routes() {
        return app.routes;
      },
    };
  }

  private shape(): Shape {
    const key = this.entries.map((e) => `${e.method} ${e.path}`).join("\n");
    let shape = shapes.get(key);
    if (shape) return shape;
    const tables = new WeakMap<Request, Table>();
    const tableOf = (request: Request): Table => {
      const t = tables.get(request);
      if (!t) throw new Error("a request reached the router without its server");
      return t;
    };
    const app = new Elysia().onError(({ code, error, request }) => tableOf(request).onError(code, error, request));
    this.entries.forEach((e, i) => {
      if (e.method === "ALL") app.all(e.path, catchAll(tableOf, i) as never);
      else app.route(e.method, e.path, routeHandler(tableOf, i) as never);
    });
    shape = { app, tables };
    shapes.set(key, shape);
    return shape;
  }
}

/**
 * Elysia looks at a handler's source to decide what to do before calling it: a handler
 * that names the whole context, or `body`, makes it parse the body first (before any
 * authentication, and losing the digits of ids above 2^53), and one that looks async
 * ("=> f(", "return f(", "await") makes it await every answer, a turn of the event loop
 * each. So the handler names only `request` and `params`, and its two returns keep the
 * transpiler from folding them into a "return f(" (test/http/sync-answers.test.ts keeps
 * this so).
 */
function routeHandler(tableOf: (request: Request) => Table, i: number) {
  return ({ request, params }: { request: Request; params: Record<string, string> }) => {
    const answer = tableOf(request).handlers[i](request, params);
    if (answer instanceof Promise) return answer;
    return answer;
  };
}

/** A catch-all's handler, with the same care. */
function catchAll(tableOf: (request: Request) => Table, i: number) {
  return ({ request }: { request: Request }) => {
    const answer = tableOf(request).handlers[i](request, {});
    if (answer instanceof Promise) return answer;
    return answer;
  };
}
