/**
 * Coverage (docs/harness.md "Coverage"): which gateway events, bot API routes, commands
 * and components the tests of a run exercised, against what each bot registered (its
 * commands) and sent (its components' custom ids). Kept by application name across
 * resets, since a test suite resets the world before each test and its applications get
 * new ids every time; DELETE /coverage starts over.
 */
import type { HookAnswer, HookRequest, HookSession } from "./hooks";

interface AppCoverage {
  events: Map<string, number>;
  routes: Map<string, { calls: number; statuses: Map<number, number> }>;
  /** Command name -> type (1 chat input, 2 user, 3 message), as the bot registered it. */
  registered: Map<string, number>;
  commandsUsed: Map<string, number>;
  componentsSent: Set<string>;
  componentsUsed: Map<string, number>;
}

const COMMAND_ROUTES = /^\/applications\/\{application_id\}(\/guilds\/\{guild_id\})?\/commands(\/\{command_id\})?$/;

export class Coverage {
  private readonly apps = new Map<string, AppCoverage>();
  /** Internal application id -> its name, for the ids of the world as it is (forgotten at a reset). */
  private readonly names = new Map<string, string>();

  constructor(
    /** An application's name by its internal id (null once it is gone). */
    private readonly nameOf: (appId: string) => string | null,
    private readonly appOf: (r: HookRequest) => string | null,
  ) {}

  readonly requestHooks = {
    answered: (r: HookRequest, a: HookAnswer) => {
      const app = this.appOf(r);
      const c = app && this.of(app);
      if (!c) return;
      const key = `${r.method} ${r.template}`;
      let route = c.routes.get(key);
      if (!route) c.routes.set(key, (route = { calls: 0, statuses: new Map() }));
      route.calls++;
      route.statuses.set(a.status, (route.statuses.get(a.status) ?? 0) + 1);
      if (a.status < 300 && COMMAND_ROUTES.test(r.template) && r.method !== "GET" && r.method !== "DELETE")
        for (const cmd of ([] as unknown[]).concat(a.body ?? [])) registered(c, cmd);
      if (a.status < 300) customIds(r.body(), c.componentsSent);
    },
  };

  readonly gatewayHooks = {
    dispatched: (s: HookSession, frame: string) => {
      const t = /^\{"op":0,"s":\d+,"t":"([A-Z_]+)"/.exec(frame)?.[1];
      const c = t && this.of(s.owner.appId);
      if (!c) return;
      c.events.set(t, (c.events.get(t) ?? 0) + 1);
      if (t === "INTERACTION_CREATE") used(c, JSON.parse(frame).d?.data);
    },
  };

  /** The ids of this world are gone with it; what was covered stays. */
  forgetIds(): void {
    this.names.clear();
  }

  clear(): void {
    this.apps.clear();
    this.names.clear();
  }

  report(): { applications: Record<string, unknown> } {
    const out: Record<string, unknown> = {};
    for (const [name, c] of [...this.apps].sort(([a], [b]) => a.localeCompare(b))) {
      const registered = [...c.registered].map(([n, type]) => ({ name: n, type }));
      out[name] = {
        events: Object.fromEntries([...c.events].sort()),
        routes: Object.fromEntries([...c.routes].sort().map(([k, v]) => [k, { calls: v.calls, statuses: Object.fromEntries(v.statuses) }])),
        commands: {
          registered,
          used: Object.fromEntries(c.commandsUsed),
          unused: registered.map((x) => x.name).filter((n) => !c.commandsUsed.has(n)),
        },
        components: {
          sent: [...c.componentsSent].sort(),
          used: Object.fromEntries(c.componentsUsed),
          unused: [...c.componentsSent].filter((id) => !c.componentsUsed.has(id)).sort(),
        },
      };
    }
    return { applications: out };
  }

  private of(appId: string): AppCoverage | null {
    let name = this.names.get(appId);
    if (name === undefined) {
      const found = this.nameOf(appId);
      if (found === null) return null;
      this.names.set(appId, (name = found));
    }
    let c = this.apps.get(name);
    if (!c)
      this.apps.set(
        name,
        (c = {
          events: new Map(),
          routes: new Map(),
          registered: new Map(),
          commandsUsed: new Map(),
          componentsSent: new Set(),
          componentsUsed: new Map(),
        }),
      );
    return c;
  }
}

function registered(c: AppCoverage, cmd: unknown): void {
  if (cmd && typeof cmd === "object" && typeof (cmd as { name?: unknown }).name === "string")
    c.registered.set((cmd as { name: string }).name, Number((cmd as { type?: unknown }).type ?? 1));
}

function used(c: AppCoverage, data: { name?: string; custom_id?: string } | undefined): void {
  if (data?.name) c.commandsUsed.set(data.name, (c.commandsUsed.get(data.name) ?? 0) + 1);
  if (data?.custom_id) c.componentsUsed.set(data.custom_id, (c.componentsUsed.get(data.custom_id) ?? 0) + 1);
}

/** Every `custom_id` in a request body's components (rows nest their buttons and menus). */
function customIds(v: unknown, into: Set<string>, depth = 0): void {
  if (!v || typeof v !== "object" || depth > 8) return;
  if (Array.isArray(v)) return v.forEach((x) => customIds(x, into, depth + 1));
  const o = v as Record<string, unknown>;
  if (typeof o.custom_id === "string" && typeof o.type === "number" && o.type !== 1) into.add(o.custom_id);
  for (const k of ["components", "data"]) if (o[k]) customIds(o[k], into, depth + 1);
}
