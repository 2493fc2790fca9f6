/**
 * Where declared routes meet the router: every door's routes are registered on the one
 * Elysia app (wire/router.ts; what tests drive in-process, and what the server falls back
 * to), and the same compiled routes are handed to Bun's native router for the server's
 * hot path.
 * Both end in the same pipeline run (wire/pipeline.ts); only the matcher differs.
 */
import type { Server } from "bun";
import type { Method, Route } from "./route";
import { routerPath } from "./route";
import { compile, run, type Compiled, type Door } from "./pipeline";
import type { Routes } from "./router";

/** A handler of Bun.serve's native router. */
export type NativeRoute = (req: Request & { params: Record<string, string> }, server: Server<any>) => Response | Promise<Response>;
export type NativeTable = Record<string, Partial<Record<Method, NativeRoute>>>;

/** Where a server's routes are registered (wire/router.ts: the Elysia app behind it). */
export type RouteHost = Routes;

/** A catch-all answer (the bot API's 501, the 404 of a path nothing declares). */
export function fallback(app: RouteHost, path: string, answer: (request: Request) => Response | Promise<Response>): void {
  app.all(path, answer);
}

/** A door's routes, compiled once and registered on the app; `native` builds Bun's table of them. */
export interface Mounted<Ctx> {
  routes: Compiled<Ctx>[];
  /**
   * The routes for Bun.serve's native router, which matches them before any JavaScript
   * runs (Elysia's router and context cost a cheap read about a fifth of its time). Exact
   * matches only: anything else (a trailing slash, a method a path lacks, a fallback)
   * reaches the Elysia app, which has every route. One difference is handed back: Bun
   * decodes "%40me" into a parameter where Elysia matches the static "@me" route, so a
   * match with an "@" in a parameter goes to `elsewhere` (the Elysia app).
   */
  native(elsewhere: (req: Request) => Response | Promise<Response>): NativeTable;
}

export function mount<Ctx>(app: RouteHost, door: Door<Ctx>, routes: Route<Ctx>[]): Mounted<Ctx> {
  const compiled = routes.map((r) => compile(door, r));
  for (const c of compiled) app.route(c.route.method, routerPath(door.prefix, c.route.path), (request, params) => run(c, request, params));
  return {
    routes: compiled,
    native(elsewhere) {
      const table: NativeTable = {};
      for (const c of compiled) {
        (table[routerPath(door.prefix, c.route.path)] ??= {})[c.route.method] = (req) => {
          const params = req.params;
          for (const k in params) if (params[k].includes("@")) return elsewhere(req);
          return run(c, req, params);
        };
      }
      return table;
    },
  };
}
