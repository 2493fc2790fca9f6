/**
 * A server's audit log (View Audit Log): a table named "Audit log" of what bots and
 * people did (who, what, target, reason, when), newest first, filtered by "Action" and
 * "Person".
 */
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { displayName, members } from "../state";
import type { Guild } from "../types";
import type { AuditEntry } from "../../contract";
import { ErrorLine, errorText } from "../views/ui";
import { Choice } from "./Invites";

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
  42: "Invite deleted",
  50: "Webhook created",
  51: "Webhook updated",
  52: "Webhook deleted",
  72: "Message deleted",
  73: "Messages deleted",
};

export function AuditLog({ guild }: { guild: Guild }) {
  const [action, setAction] = useState("");
  const [person, setPerson] = useState("");
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [error, setError] = useState<string>();
  const people = members.value[guild.id] ?? [];
  useEffect(() => {
    const q = new URLSearchParams({ limit: "100" });
    if (action) q.set("action_type", action);
    if (person) q.set("user_id", person);
    api<AuditEntry[]>("GET", `/guilds/${guild.id}/audit-log?${q}`).then(
      (e) => {
        setEntries(e);
        setError(undefined);
      },
      (e) => setError(errorText(e)),
    );
  }, [guild.id, action, person]);
  const target = (e: AuditEntry) => {
    const id = e.target_id;
    if (e.target_user) return displayName(e.target_user);
    if (!id) return "—";
    const c = guild.channels.find((x) => x.id === id);
    if (c) return `#${c.name}`;
    const r = guild.roles.find((x) => x.id === id);
    return r ? `@${r.name}` : id === guild.id ? guild.name : "someone no longer here";
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
        <div class="table-scroll">
          <table aria-label="Audit log">
            <thead>
              <tr>
                <th>Who</th>
                <th>What</th>
                <th>Target</th>
                <th>Reason</th>
                <th>When</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <td>{e.actor ? displayName(e.actor) : "System"}</td>
                  <td>{ACTIONS[e.action_type] ?? `Action ${e.action_type}`}</td>
                  <td>{target(e)}</td>
                  <td>{e.reason ?? ""}</td>
                  <td>{new Date(e.created_at).toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {entries && !entries.length && <p class="muted">Nothing recorded{action || person ? " for this filter" : " yet"}.</p>}
    </section>
  );
}
