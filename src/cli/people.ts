/**
 * The operator's commands on people: create, list, set a password, disable, delete (and,
 * in admin.ts, administrators and reset links). What they change reaches a server running
 * beside them at once (store/relay.ts): a person disabled there is signed out of their
 * open clients too. The operator acts as the administrator (core/admins.ts OPERATOR).
 */
import { OPERATOR } from "../core";
import { DATA_FLAG, findPerson, required, type Command } from "./operator";

export const PEOPLE_COMMANDS: Command[] = [
  {
    name: "user create",
    usage: "parley user create <username> [--password P] [--admin]",
    summary: "create a person",
    flags: [
      DATA_FLAG,
      {
        name: "password",
        kind: "string",
        help: "password (8+ characters) to sign in with (without it, nobody can sign in until one is set)",
      },
      { name: "admin", kind: "bool", help: "make this person an administrator" },
    ],
    database: "existing",
    async run(p, [name], f, out) {
      const username = required(name, "a username");
      // Checked for strength and hashed off the event loop, as a sign-up's is.
      const passwordHash = typeof f.password === "string" ? await p.core.users.preparePassword(username, f.password) : null;
      const u = p.core.users.createPerson({ username, passwordHash, admin: f.admin === true });
      out(`person ${u.username} id ${u.id}${u.is_admin ? " (administrator)" : ""}`);
      // Without a password the account exists but nobody can sign in to it yet: say how to open it.
      if (!passwordHash)
        out(
          `no password: they cannot sign in until 'parley user password ${u.username} --password ...' or 'parley user reset-link ${u.username}'`,
        );
    },
  },
  {
    name: "user list",
    usage: "parley user list [--search TEXT]",
    summary: "list people (id, the id bots see, name, administrator, disabled, applications)",
    flags: [DATA_FLAG, { name: "search", kind: "string", help: "only people whose username or display name holds TEXT" }],
    database: "existing",
    run(p, _a, f, out) {
      const search = typeof f.search === "string" ? f.search : "";
      const people = p.core.accounts.list(OPERATOR, { search, limit: 1000 });
      if (!people.length) out(search ? `nobody matches '${search}'` : "no people yet ('parley user create')");
      for (const { user: u, applications } of people) {
        const marks = [
          u.is_admin ? "administrator" : "",
          u.disabled_at ? "disabled" : "",
          applications.length ? `${applications.length} application${applications.length === 1 ? "" : "s"}` : "",
        ]
          .filter(Boolean)
          .join(", ");
        out(`${u.id}  ${p.api.flakes.of(u.id)}  ${u.username}${u.global_name ? ` "${u.global_name}"` : ""}${marks ? `  (${marks})` : ""}`);
      }
    },
  },
  {
    name: "user password",
    usage: "parley user password <person> --password P",
    summary: "set a person's password (their sessions end)",
    flags: [DATA_FLAG, { name: "password", kind: "string", help: "the new password (8+ characters)" }],
    database: "existing",
    async run(p, [ref], f, out) {
      const u = findPerson(p, required(ref, "a person"));
      await p.core.users.setPassword(u.id, required(f.password, "--password"));
      out(`password set for ${u.username}; their sessions have ended`);
    },
  },
  {
    name: "user disable",
    usage: "parley user disable <person> [--apps] [--enable]",
    summary: "stop a person signing in, and end their sessions now; --apps disables their applications too (--enable undoes it)",
    flags: [
      DATA_FLAG,
      {
        name: "apps",
        kind: "bool",
        help: "also disable their applications: tokens refused, bots' sessions ended (with --enable: enable them)",
      },
      { name: "enable", kind: "bool", help: "let them sign in again" },
    ],
    database: "existing",
    run(p, [ref], f, out) {
      const person = findPerson(p, required(ref, "a person"));
      const apps = p.core.apps.listOwned(person.id);
      const u = p.core.accounts.setDisabled(OPERATOR, person.id, f.enable !== true, { applications: f.apps === true });
      const names = apps.map((a) => a.name).join(", ");
      if (u.disabled_at === null) {
        out(`${u.username} may sign in again${f.apps === true && apps.length ? `; their applications are enabled: ${names}` : ""}`);
        return;
      }
      const bots =
        f.apps === true
          ? apps.length
            ? `; their applications are disabled too (tokens refused, bots' sessions ended): ${names}`
            : "; they own no applications"
          : apps.length
            ? `; their bots keep running (${names}: add --apps to disable them too)`
            : "";
      out(
        `${u.username} is disabled: they cannot sign in, and their sessions have ended; their servers and messages stay${bots} ('parley user disable ${u.username} --enable' undoes it)`,
      );
    },
  },
  {
    name: "user delete",
    usage: "parley user delete <person>",
    summary: "delete a person: their messages stay, shown as from Deleted User; they leave every server",
    flags: [DATA_FLAG],
    database: "existing",
    run(p, [ref], _f, out) {
      const u = findPerson(p, required(ref, "a person"));
      const d = p.core.accounts.delete(OPERATOR, u.id);
      const messages = d.messages === 1 ? "their 1 message stays" : `their ${d.messages} messages stay`;
      out(
        `deleted ${d.username}: ${messages}, shown as from Deleted User; they left ${d.servers} server${d.servers === 1 ? "" : "s"}, and their sessions and devices have ended`,
      );
    },
  },
];
