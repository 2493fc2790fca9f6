import type { CoreDeps } from "./deps";
import type { Guilds } from "./guilds";
import { DomainError } from "./errors";
import { normaliseCommand } from "./command-body";
import { MAX_COMMANDS_PER_SCOPE, type Command, type CommandBody, type CommandInput } from "./command-types";
import type { CommandRow } from "./rows";

export * from "./command-types";

function bad(path: string, message: string, code = "BASE_TYPE_INVALID"): never {
  throw DomainError.invalid(path, message, code);
}
export { normaliseCommand } from "./command-body";

/**
 * Application commands, global (guild null) or per guild. A scope holds at most 100;
 * names are unique per scope and type. Every change bumps `version` (the same body again does not).
 */
export class Commands {
  constructor(
    private readonly d: CoreDeps,
    private readonly guilds: Guilds,
  ) {}

  private get db() {
    return this.d.store.db;
  }

  private static parse(r: CommandRow): Command {
    return { ...r, body: JSON.parse(r.body) as CommandBody };
  }

  list(appId: string, guildId: string | null): Command[] {
    const rows = this.db
      .query("SELECT * FROM commands WHERE application_id = ? AND guild_id IS ? ORDER BY id")
      .all(appId, guildId) as CommandRow[];
    return rows.map(Commands.parse);
  }

  get(id: string): Command | null {
    const r = this.db.query("SELECT * FROM commands WHERE id = ?").get(id) as CommandRow | null;
    return r ? Commands.parse(r) : null;
  }

  /** The command in this exact scope, or 404. */
  require(appId: string, guildId: string | null, id: string): Command {
    const c = this.get(id);
    if (!c || c.application_id !== appId || c.guild_id !== guildId) throw DomainError.notFound("application command");
    return c;
  }

  /** The commands a person may pick in a guild (guild scope first) or in a DM (global only). */
  findByName(appId: string, guildId: string | null, name: string, type: number): Command | null {
    if (guildId) {
      const g = this.db
        .query("SELECT * FROM commands WHERE application_id = ? AND guild_id = ? AND name = ? AND type = ?")
        .get(appId, guildId, name, type) as CommandRow | null;
      if (g) return Commands.parse(g);
    }
    const r = this.db
      .query("SELECT * FROM commands WHERE application_id = ? AND guild_id IS NULL AND name = ? AND type = ?")
      .get(appId, name, type) as CommandRow | null;
    return r ? Commands.parse(r) : null;
  }

  /** POST: create, or update the command of the same name and type (as the reference does). */
  upsert(appId: string, guildId: string | null, input: CommandInput): { command: Command; created: boolean } {
    const body = normaliseCommand(input);
    return this.d.store.write(() => {
      this.requireScope(guildId);
      this.serialize(appId, guildId);
      const existing = this.byName(appId, guildId, body.name, body.type);
      if (existing) return { command: this.save(existing, body), created: false };
      if (this.count(appId, guildId) >= MAX_COMMANDS_PER_SCOPE)
        bad("", `Maximum number of application commands reached (${MAX_COMMANDS_PER_SCOPE})`, "APPLICATION_COMMANDS_MAX");
      return { command: this.insert(appId, guildId, body), created: true };
    });
  }

  /** PATCH: the given fields replace the stored ones; the type never changes. */
  update(appId: string, guildId: string | null, id: string, patch: Partial<CommandInput>): Command {
    return this.d.store.write(() => {
      this.serialize(appId, guildId);
      const c = this.require(appId, guildId, id);
      const merged: CommandInput = { ...c.body, ...stripUndefined(patch), type: c.body.type };
      const body = normaliseCommand(merged);
      const clash = this.byName(appId, guildId, body.name, body.type);
      if (clash && clash.id !== c.id) bad("name", "A command with this name already exists", "APPLICATION_COMMAND_ALREADY_EXISTS");
      return this.save(c, body);
    });
  }

  delete(appId: string, guildId: string | null, id: string): void {
    this.d.store.write(() => {
      this.require(appId, guildId, id);
      this.db.query("DELETE FROM commands WHERE id = ?").run(id);
    });
  }

  /**
   * PUT: the scope becomes exactly this list, in one transaction (a bad entry changes
   * nothing). Commands matched by name and type keep their id.
   */
  overwrite(appId: string, guildId: string | null, inputs: CommandInput[]): Command[] {
    if (inputs.length > MAX_COMMANDS_PER_SCOPE) bad("", `Must be ${MAX_COMMANDS_PER_SCOPE} or fewer in length.`, "BASE_TYPE_MAX_LENGTH");
    const bodies = inputs.map((c, i) => normaliseCommand(c, `[${i}]`));
    const seen = new Set<string>();
    bodies.forEach((b, i) => {
      const key = `${b.type}:${b.name}`;
      if (seen.has(key)) bad(`[${i}].name`, "Application command names must be unique", "APPLICATION_COMMANDS_DUPLICATE_NAME");
      seen.add(key);
    });
    return this.d.store.write(() => {
      this.requireScope(guildId);
      this.serialize(appId, guildId);
      const current = this.list(appId, guildId);
      const keep = new Set<string>();
      const out = bodies.map((b) => {
        const existing = current.find((c) => c.body.type === b.type && c.name === b.name);
        if (!existing) return this.insert(appId, guildId, b);
        keep.add(existing.id);
        return this.save(existing, b);
      });
      for (const c of current) if (!keep.has(c.id)) this.db.query("DELETE FROM commands WHERE id = ?").run(c.id);
      return out;
    });
  }

  private requireScope(guildId: string | null): void {
    if (guildId) this.guilds.require(guildId);
  }

  /** Names unique in a scope and at most 100 a scope: checked by one writer at a time, on every node (Store.serialize). */
  private serialize(appId: string, guildId: string | null): void {
    this.d.store.serialize(`commands:${appId}:${guildId ?? "global"}`);
  }

  private count(appId: string, guildId: string | null): number {
    return (
      this.db.query("SELECT count(*) AS n FROM commands WHERE application_id = ? AND guild_id IS ?").get(appId, guildId) as { n: number }
    ).n;
  }

  private byName(appId: string, guildId: string | null, name: string, type: number): Command | null {
    const r = this.db
      .query("SELECT * FROM commands WHERE application_id = ? AND guild_id IS ? AND name = ? AND type = ?")
      .get(appId, guildId, name, type) as CommandRow | null;
    return r ? Commands.parse(r) : null;
  }

  private insert(appId: string, guildId: string | null, body: CommandBody): Command {
    const row: CommandRow = {
      id: this.d.ids.next(),
      application_id: appId,
      guild_id: guildId,
      name: body.name,
      type: body.type,
      body: JSON.stringify(body),
      version: 1,
      created_at: this.d.clock.now(),
    };
    this.db
      .query(
        "INSERT INTO commands (id, application_id, guild_id, name, type, body, version, created_at) VALUES ($id, $application_id, $guild_id, $name, $type, $body, $version, $created_at)",
      )
      .run(row as never);
    return Commands.parse(row);
  }

  /** A change bumps the version; the same body again (a POST, a PATCH, a PUT that repeats it) changes nothing. */
  private save(c: Command, body: CommandBody): Command {
    if (JSON.stringify(c.body) === JSON.stringify(body)) return c;
    const version = c.version + 1;
    this.db.query("UPDATE commands SET name = ?, body = ?, version = ? WHERE id = ?").run(body.name, JSON.stringify(body), version, c.id);
    return { ...c, name: body.name, body, version };
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
