/**
 * A server's audit log (View Audit Log): a table named "Audit log" of what bots and
 * people did (who, what, target, what changed, reason, when), newest first, filtered by
 * "Action" and "Person", a hundred at a time ("Show older entries" reads the next).
 */
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { displayName, members } from "../state";
import type { Guild } from "../types";
import type { AuditEntry } from "../../contract";
import { ErrorLine, errorText } from "../views/ui";
import { Choice } from "./Invites";
import { CATEGORY } from "../channel-groups";
import { auditDetails } from "./audit-words";

const SERVER_UPDATED = 1;
const PAGE = 100;

/** The reference's action types Parley records (reference-gaps 3.13). */
const ACTIONS: Record<number, string> = {
  1: "Server updated",
  10: "Channel created",
  11: "Channel updated",
  12: "Channel deleted",
  13: "Permission overwrite created",
  14: "Permission overwrite updated",
  15: "Permission overwrite deleted",
  20: "Member kicked",
  22: "Member banned",
  23: "Member unbanned",
  24: "Member updated",
  25: "Member roles updated",
  28: "Bot added",
  30: "Role created",
  31: "Role updated",
  32: "Role deleted",
  40: "Invite created",
  41: "Invite updated",
  42: "Invite deleted",
  50: "Webhook created",
  51: "Webhook updated",
  52: "Webhook deleted",
  60: "Emoji created",
  61: "Emoji updated",
  62: "Emoji deleted",
  72: "Message deleted",
  73: "Messages deleted",
  74: "Message pinned",
  75: "Message unpinned",
};

/** How a target of each kind of action is written, by its name: #channel, @role, :emoji:. */
function named(actionType: number, name: string): string {
  if (actionType >= 10 && actionType <= 15) return `#${name}`;
  if (actionType >= 30 && actionType <= 32) return `@${name}`;
  if (actionType >= 60 && actionType <= 62) return `:${name}:`;
  return name;
}

/**
 * An entry's target, readable: a person by name (even after they left), a channel or
 * role that still exists by its name now, and one deleted since by the name its entry
 * recorded (`changes`), since an id alone tells the reader nothing.
 */
function targetOf(guild: Guild, e: AuditEntry, all: AuditEntry[]): string {
  const id = e.target_id;
  if (e.target_user) return displayName(e.target_user);
  // The server's own id is its @everyone role's too: a change to the server names the server.
  if (e.action_type === SERVER_UPDATED) return guild.name;
  const c = guild.channels.find((x) => x.id === id);
  if (c) return c.type === CATEGORY ? (c.name ?? "") : `#${c.name}`;
  const r = guild.roles.find((x) => x.id === id);
  if (r) return r.everyone ? "@everyone" : `@${r.name}`;
  if (id === guild.id) return guild.name;
  // Its own entry, else another about the same target (an update of a channel deleted
  // since names nothing; its creation or deletion recorded the name).
  for (const x of [e, ...all.filter((o) => o !== e && o.target_id === id)]) {
    const recorded = x.changes.find((c) => c.key === "name" || c.key === "code");
    const name = recorded?.new_value ?? recorded?.old_value;
    if (typeof name === "string") return recorded?.key === "code" ? name : named(x.action_type, name);
  }
  return id ? "since deleted" : "—";
}

/**
 * The entries as read so far, newest first: a page of a hundred for the filters, then the
 * next older page on `older()`; `more` while the last page read was full.
 */
function useAuditPages(guild: Guild, action: string, person: string) {
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [more, setMore] = useState(false);
  const [error, setError] = useState<string>();
  const read = (before: string | null) => {
    const q = new URLSearchParams({ limit: String(PAGE) });
    if (action) q.set("action_type", action);
    if (person) q.set("user_id", person);
    if (before) q.set("before", before);
    return api<AuditEntry[]>("GET", `/guilds/${guild.id}/audit-log?${q}`);
  };
  const show = (earlier: AuditEntry[]) => (page: AuditEntry[]) => {
    setEntries([...earlier, ...page]);
    setMore(page.length === PAGE);
    setError(undefined);
  };
  const failed = (e: unknown) => setError(errorText(e));
  useEffect(() => void read(null).then(show([]), failed), [guild.id, action, person]);
  const older = () => void read(entries?.at(-1)?.id ?? null).then(show(entries ?? []), failed);
  return { entries, more, error, older };
}

export function AuditLog({ guild }: { guild: Guild }) {
  const [action, setAction] = useState("");
  const [person, setPerson] = useState("");
  const { entries, more, error, older } = useAuditPages(guild, action, person);
  const people = members.value[guild.id] ?? [];
  const nameOf = (id: string) => {
    const m = people.find((x) => x.user.id === id);
    return m ? m.nick || displayName(m.user) : null;
  };
  return (
    <section class="card" aria-labelledby="audit-title">
      <h3 id="audit-title">Audit log</h3>
      <div class="inline-form">
        <Choice
          id="audit-action"
          label="Action"
          value={action}
          onChange={setAction}
          options={[["Every action", ""], ...Object.entries(ACTIONS).map(([v, l]) => [l, v] as [string, string])]}
        />
        <Choice
          id="audit-person"
          label="Person"
          value={person}
          onChange={setPerson}
          options={[["Everyone", ""], ...people.map((m) => [displayName(m.user), m.user.id] as [string, string])]}
        />
      </div>
      <ErrorLine error={error} />
      {entries && (
        // Wider than a phone and with nothing in it to focus: it takes focus itself, so the
        // keyboard can scroll it sideways.
        // biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a scrolling box must be reachable by keyboard (WCAG 2.1.1); a fieldset is for form fields
        <div class="table-scroll" tabIndex={0} role="group" aria-label="Audit log entries">
          <table aria-label="Audit log">
            <thead>
              <tr>
                <th>Who</th>
                <th>What</th>
                <th>Target</th>
                <th>Changes</th>
                <th>Reason</th>
                <th>When</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <td>{e.actor ? displayName(e.actor) : "System"}</td>
                  <td>{ACTIONS[e.action_type] ?? `Action ${e.action_type}`}</td>
                  <td>{targetOf(guild, e, entries)}</td>
                  <td>{auditDetails(guild, e, nameOf).join("; ")}</td>
                  <td>{e.reason ?? ""}</td>
                  <td>{new Date(e.created_at).toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {more && (
        <button type="button" onClick={older}>
          Show older entries
        </button>
      )}
      {entries && !entries.length && <p class="muted">Nothing recorded{action || person ? " for this filter" : " yet"}.</p>}
    </section>
  );
}
