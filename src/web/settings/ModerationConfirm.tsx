/**
 * The confirmation of a kick or a ban, wherever a moderator asks for one (Server settings
 * → Members, a member's profile card): "Kick <name>?" or "Ban <name>?" with a "Reason"
 * (the audit log's) and, for a ban, "Delete their messages" (none, or back from an hour
 * to 7 days, the reference client's choices). A refusal shows in the dialog, which stays
 * open; the server decides by rank and right (core/moderation.ts).
 */
import { useState } from "preact/hooks";
import { api } from "../api";
import type { Guild } from "../types";
import { Confirm, errorText } from "../views/ui";

export type ModerationKind = "kick" | "ban";

/** How far back a ban takes the person's messages with it: the reference client's choices, in seconds. */
const PURGE: [number, string][] = [
  [0, "Don't delete any"],
  [3600, "Previous hour"],
  [21600, "Previous 6 hours"],
  [43200, "Previous 12 hours"],
  [86400, "Previous 24 hours"],
  [259200, "Previous 3 days"],
  [604800, "Previous 7 days"],
];

export function ModerationConfirm(props: {
  guild: Guild;
  kind: ModerationKind;
  userId: string;
  name: string;
  /** After the server did it, with the words to show ("Carol was banned."). */
  onDone(status: string): void;
  onCancel(): void;
}) {
  const { guild, kind, userId, name } = props;
  const [reason, setReason] = useState("");
  const [purge, setPurge] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  async function act() {
    setBusy(true);
    setError(undefined);
    try {
      const why = reason.trim() ? { reason: reason.trim() } : {};
      if (kind === "kick") await api("DELETE", `/guilds/${guild.id}/members/${userId}`, why);
      else await api("PUT", `/guilds/${guild.id}/bans/${userId}`, { ...why, delete_message_seconds: purge });
      props.onDone(`${name} was ${kind === "kick" ? "kicked" : "banned"}.`);
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  }
  return (
    <Confirm
      title={`${kind === "kick" ? "Kick" : "Ban"} ${name}?`}
      confirm={kind === "kick" ? "Kick" : "Ban"}
      busy={busy}
      error={error}
      onConfirm={() => void act()}
      onCancel={props.onCancel}
    >
      <p>
        {kind === "kick"
          ? `${name} leaves the server and can come back with an invite.`
          : `${name} leaves the server and cannot come back while banned.`}
      </p>
      <div class="field">
        <label for="moderation-reason">Reason</label>
        <input id="moderation-reason" value={reason} maxLength={512} onInput={(e) => setReason(e.currentTarget.value)} />
      </div>
      {kind === "ban" && (
        <div class="field">
          <label for="moderation-purge">Delete their messages</label>
          <select id="moderation-purge" value={String(purge)} onChange={(e) => setPurge(Number(e.currentTarget.value))}>
            {PURGE.map(([secs, label]) => (
              <option key={secs} value={String(secs)}>
                {label}
              </option>
            ))}
          </select>
        </div>
      )}
    </Confirm>
  );
}
