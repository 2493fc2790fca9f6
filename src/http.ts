/**
 * Part of the composition root: the HTTP surfaces' one Elysia app. Each door (the bot
 * API, the people's API and its image proxy, the operator's routes) is built once with
 * its context and hooks, and its declared routes are mounted through the one pipeline
 * (wire/mount.ts); the API description is read off the same declarations. The harness's
 * routes are declared and mounted the same way, in test mode only.
 * Anything nothing declares answers the 404 (a page for a browser, JSON for a program).
 */
import type { Config, Urls } from "./config";
import type { Observability } from "./observability";
import type { BotApi } from "./botapi/context";
import { BOT_BODY_LIMIT, botDoor } from "./botapi/http";
import { BOT_API_DESCRIPTION, botApiRoutes, botImageRoutes, mountBotApi } from "./botapi";
import type { ClientContext } from "./clientapi/context";
import {
  CLIENT_API_DESCRIPTION,
  clientApiRoutes,
  fileRoutes,
  MEDIA_PREFIX,
  mediaProxyRoutes,
  PEOPLE_BODY_LIMIT,
  peopleDoor,
  uploadBodyRoutes,
} from "./clientapi";
import { OPS_BODY_LIMIT, opsDoor, opsRoutes, type OpsContext } from "./ops";
import { apiDescriptionRoutes, OPS_DESCRIPTION } from "./ops/openapi";
import { fallback, mount, type NativeTable } from "./wire/mount";
import { Routes, type HttpApp } from "./wire/router";
import { unmatched, type Door } from "./wire/pipeline";
import { jsonDoor } from "./wire/json-door";
import { fragmentOf } from "./wire/openapi";
import type { Route } from "./wire/route";
import type { RequestHooks } from "./wire/hooks";
import { screenFor, screenRequest, screenUpload } from "./wire/screen";
import { jsonResponse } from "./wire/http";
import { bodyLimitFor, pathnameOf } from "./wire/body";
import { notFoundPage } from "./web/headers";

export type { HttpApp } from "./wire/router";

export interface Http {
  app: HttpApp;
  /** The declared routes of the bot API and the people's doors for Bun's native router (FastPaths.nativeRouter). */
  native(elsewhere: (req: Request) => Response | Promise<Response>): NativeTable;
  /** Every declared route by door, with its prefix (the route table of contents, the description). */
  declared: { door: string; prefix: string; routes: Route[] }[];
}

export interface HttpParts {
  config: Config;
  urls: Urls;
  api: BotApi;
  people: ClientContext;
  ops: OpsContext;
  obs: Observability;
  /** Test mode: the harness's routes and door (loaded only then: app.ts). */
  harness: HarnessParts | null;
  /** More hooks for the people's and the operator's doors (the bot API has its own, api.hooks; the harness is not counted). */
  hooks?: RequestHooks[];
}

/** What a door is built with beside its context (the root's part). */
export interface DoorSetup {
  screen(request: Request): Response | undefined;
  hooks: RequestHooks[];
  sync: boolean;
  report(err: unknown, route: string): void;
}

export interface HarnessParts {
  prefix: string;
  description: { tag: string; description: string };
  routes: Route[];
  door(o: DoorSetup): Door<unknown>;
}

// Longer than 80 lines because every door is made and mounted here, in the order the router must see them.
export function buildHttp(x: HttpParts): Http {
  const { config, urls, api, people, obs } = x;
  const sync = config.fastPaths.syncAnswers;
  const hooks = [obs.requestHooks, ...(x.hooks ?? [])];
  const report = (err: unknown, route: string) => obs.failure("internal error", err, { route });
  const app = new Routes();

  const bot = botDoor(api, {
    sync,
    groupCommit: config.fastPaths.groupCommit,
    screen: screenFor({ bodyLimit: BOT_BODY_LIMIT, sameOrigin: false }, urls),
    report,
  });
  // Images as data URIs (an emoji, an icon, an avatar) are larger than any other bot body.
  const imageLimit = Math.ceil((Math.max(config.media.avatarBytes, config.media.emojiBytes) * 4) / 3) + BOT_BODY_LIMIT;
  const botImages = mount(
    app,
    botDoor(api, {
      sync,
      groupCommit: config.fastPaths.groupCommit,
      screen: screenFor({ bodyLimit: imageLimit, sameOrigin: false }, urls),
      report,
      bodyLimit: imageLimit,
    }),
    botImageRoutes,
  );
  const botRoutes = mountBotApi(app, bot);
  const peopleRoutes = clientApiRoutes(people);
  const peopleMounted = mount(
    app,
    peopleDoor(people, {
      prefix: "/api/client/v1",
      screen: screenFor({ bodyLimit: PEOPLE_BODY_LIMIT, sameOrigin: true }, urls),
      hooks,
      sync,
      report,
    }),
    peopleRoutes,
  );
  // An <img> sends no Origin worth checking: the proxy takes only links this server signed.
  const mediaRoutes = mediaProxyRoutes(people);
  const mediaMounted = mount(
    app,
    peopleDoor(people, {
      prefix: MEDIA_PREFIX,
      screen: screenFor({ bodyLimit: PEOPLE_BODY_LIMIT, sameOrigin: false }, urls),
      hooks,
      sync,
      report,
    }),
    mediaRoutes,
  );

  // A file's bytes: its own door, for its own first look (any type, the file size limit).
  const uploadRoutes = uploadBodyRoutes(people);
  const uploadMounted = mount(
    app,
    peopleDoor(people, { prefix: "/api/client/v1", screen: screenUpload(config.media.maxFileBytes, urls), hooks, sync, report }),
    uploadRoutes,
  );
  // Attachments, avatars, icons and emoji on the reference's content paths (clientapi/files.ts).
  const files = fileRoutes(people);
  const filesMounted = mount(
    app,
    peopleDoor(people, { prefix: "", screen: screenFor({ bodyLimit: PEOPLE_BODY_LIMIT, sameOrigin: false }, urls), hooks, sync, report }),
    files,
  );

  const client = [
    { door: "people", prefix: "/api/client/v1", routes: [...peopleRoutes, ...uploadRoutes] },
    { door: "people", prefix: MEDIA_PREFIX, routes: mediaRoutes },
    { door: "people", prefix: "", routes: files },
  ];
  const botApi = { door: "bot", prefix: "/api/v10", routes: [...botApiRoutes, ...botImageRoutes] };
  const operator = { door: "ops", prefix: "", routes: [] as Route[] };
  // Read on the description's first request, when every door is mounted.
  const fragments = () => [
    fragmentOf(CLIENT_API_DESCRIPTION, client),
    fragmentOf(BOT_API_DESCRIPTION, [botApi]),
    ...(x.harness && harness ? [fragmentOf(x.harness.description, [harness])] : []),
    fragmentOf(OPS_DESCRIPTION, [operator]),
  ];
  operator.routes = [...opsRoutes(), ...apiDescriptionRoutes(fragments)];
  mount(
    app,
    opsDoor(x.ops, { screen: screenFor({ bodyLimit: OPS_BODY_LIMIT, sameOrigin: false }, urls), hooks, sync, report }),
    operator.routes,
  );
  // Harness routes are mounted only in test mode; elsewhere those paths are plain 404s.
  const harness = x.harness ? { door: "harness", prefix: x.harness.prefix, routes: x.harness.routes } : null;
  if (x.harness) {
    const screen = screenFor({ bodyLimit: bodyLimitFor(`${x.harness.prefix}/`), sameOrigin: true }, urls);
    mount(app, x.harness.door({ screen, hooks: [obs.requestHooks], sync, report }), x.harness.routes);
  }
  const declared = [...client, botApi, ...(harness ? [harness] : []), operator];
  notFoundFallback(
    app,
    urls,
    jsonDoor({ name: "none", prefix: "", ctx: null, bodyLimit: OPS_BODY_LIMIT, screen: () => undefined, hooks, sync, report }),
  );
  return {
    app: app.finish(elysiaErrors(obs)),
    native: (elsewhere) =>
      [botImages, peopleMounted, mediaMounted, uploadMounted, filesMounted].reduce(
        (table, m) => mergeTables(table, m.native(elsewhere)),
        botRoutes.native(elsewhere),
      ),
    declared,
  };
}

/** The Elysia app's error hook sees only true bugs and Elysia's own refusals. */
function elysiaErrors(obs: Observability) {
  return (code: string | number, error: unknown, request: Request): Response => {
    // Every path has a route (the 404 below), so this is a true bug, or Elysia's own refusal.
    if (code === "NOT_FOUND") return notFound(request);
    if (code === "PARSE" || code === "VALIDATION") return jsonResponse(400, { code: 50035, message: "Invalid Form Body" });
    obs.failure("internal error", error, { route: `${request.method} (Elysia)` });
    return jsonResponse(500, { code: 0, message: "500: Internal Server Error" });
  };
}

/** What no declaration matches: the first look, then the 404 (a page for a browser), observed as "(no route)". */
function notFoundFallback(app: Routes, urls: Urls, nowhere: Door<null>): void {
  fallback(app, "/*", (request) => {
    const started = performance.now();
    // Oversized bodies, and cross-site requests to the people's API and harness, end here as anywhere (docs/security.md).
    const refused = screenRequest(request, urls);
    if (refused) return refused;
    const page = notFound(request);
    return unmatched(nowhere, request, { status: page.status, headers: {}, raw: page }, { template: "(no route)", started });
  });
}

function notFound(request: Request): Response {
  return isPageRequest(request) ? notFoundPage() : jsonResponse(404, { code: 0, message: "404: Not Found" });
}

/**
 * Whether a request that matched nothing was a browser asking for a page: then it gets
 * the HTML not-found page (with a link home); API paths and programs' writes keep the
 * spec's JSON error.
 */
function isPageRequest(request: Request): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  const path = pathnameOf(request.url);
  return !(path === "/api" || path.startsWith("/api/") || path === "/gateway" || path.startsWith("/gateway/"));
}

/** Two doors' native tables as one: a path both have keeps every method of each. */
function mergeTables(a: NativeTable, b: NativeTable): NativeTable {
  const out: NativeTable = { ...a };
  for (const [path, methods] of Object.entries(b)) out[path] = { ...out[path], ...methods };
  return out;
}
