import type { SeedAnswer } from "./wire-types.js";

/** What the test has seeded, and how it names things: channels by name, apps by name. */
export class World {
  answer: SeedAnswer = { users: {}, guilds: {}, applications: {} };
  private readonly tokens = new Map<string, string>();

  remember(w: SeedAnswer): SeedAnswer {
    this.answer = w;
    for (const [name, a] of Object.entries(w.applications)) this.tokens.set(name, a.token);
    return w;
  }

  forget(): void {
    this.tokens.clear();
    this.answer = { users: {}, guilds: {}, applications: {} };
  }

  app(name: string) {
    const a = this.answer.applications[name];
    if (!a)
      throw new Error(
        `no application '${name}' in the seeded world (it has ${Object.keys(this.answer.applications).join(", ") || "none"})`,
      );
    return a;
  }

  /** An application's snowflake by world name, or a snowflake as it is. */
  appId(ref: string): string {
    return /^[0-9]{17,20}$/.test(ref) ? ref : this.app(ref).id;
  }

  /** The application an interaction helper means when none is named: the bot under test, or the world's only one. */
  defaultApp(underTest: string[]): string {
    const names = underTest.length ? underTest : Object.keys(this.answer.applications);
    if (names.length !== 1)
      throw new Error(`name the application ({ app: "..." }): the world has ${names.length ? names.join(", ") : "none"}`);
    return names[0];
  }

  tokenOf(app: string): string {
    return this.tokens.get(app) ?? this.app(app).token;
  }

  setToken(app: string, token: string): void {
    this.tokens.set(app, token);
  }

  /** A channel's snowflake by name ("general", "Lab/general" or "Lab#general") or snowflake. */
  channelId(ref: string): string {
    if (/^[0-9]{17,20}$/.test(ref)) return ref;
    const m = /^(.+)[/#]([^/#]+)$/.exec(ref);
    const found: string[] = [];
    for (const [gname, g] of Object.entries(this.answer.guilds)) {
      if (m && m[1] !== gname) continue;
      const id = g.channels[m ? m[2] : ref];
      if (id) found.push(id);
    }
    if (found.length !== 1)
      throw new Error(found.length ? `channel '${ref}' is ambiguous: name its server ("Guild/${ref}")` : `no channel '${ref}'`);
    return found[0];
  }
}
