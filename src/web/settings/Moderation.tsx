/**
 * Members with Kick and Ban (bots included; a bot removed gets GUILD_DELETE). Each asks
 * for confirmation; the server's refusal (the role hierarchy, the owner) shows beside the
 * member.
 */
import { useState } from "preact/hooks";
import { api } from "../api";
import { BIT, holds } from "../names";
import { displayName, me, members } from "../state";
import type { Guild, Member } from "../types";
import { Confirm, ErrorLine, errorText } from "../views/ui";

type Action = { kind: "kick" | "ban"; member: Member };

export function MemberModeration({ guild }: { guild: Guild }) {
  const list = (members.value[guild.id] ?? []).filter((m) => m.user.id !== me.value?.id && m.user.id !== guild.owner_id);
  const [asking, setAsking] = useState<Action | null>(null);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);
  const name = (m: Member) => m.nick || displayName(m.user);
  async function act(a: Action) {
    setBusy(true);
    setStatus("");
    setErrors({ ...errors, [a.member.user.id]: undefined });
    try {
      if (a.kind === "kick") await api("DELETE", `/guilds/${guild.id}/members/${a.member.user.id}`);
      else await api("PUT", `/guilds/${guild.id}/bans/${a.member.user.id}`, {});
      setStatus(`${name(a.member)} was ${a.kind === "kick" ? "kicked" : "banned"}.`);
    } catch (e) {
      setErrors({ ...errors, [a.member.user.id]: errorText(e) });
    } finally {
      setBusy(false);
      setAsking(null);
    }
  }
  return (
    <section class="card" aria-labelledby="moderation-title">
      <h3 id="moderation-title">Members</h3>
      <p role="status" class="hint">
        {status}
      </p>
      {!list.length && <p class="muted">Nobody else is here yet.</p>}
      <ul class="rows" aria-label="Members to moderate">
        {list.map((m) => (
          <li key={m.user.id}>
            <span class="row-name">
              {name(m)} {m.user.bot && <span class="tag">BOT</span>}
            </span>
            {holds(guild, BIT.KICK_MEMBERS) && (
              <button type="button" onClick={() => setAsking({ kind: "kick", member: m })}>
                Kick
              </button>
            )}
            {holds(guild, BIT.BAN_MEMBERS) && (
              <button type="button" class="danger" onClick={() => setAsking({ kind: "ban", member: m })}>
                Ban
              </button>
            )}
            <ErrorLine error={errors[m.user.id]} />
          </li>
        ))}
      </ul>
      {asking && (
        <Confirm
          title={`${asking.kind === "kick" ? "Kick" : "Ban"} ${name(asking.member)}?`}
          confirm={asking.kind === "kick" ? "Kick" : "Ban"}
          busy={busy}
          onConfirm={() => act(asking)}
          onCancel={() => setAsking(null)}
        >
          <p>
            {asking.kind === "kick"
              ? `${name(asking.member)} leaves the server and can come back with an invite.`
              : `${name(asking.member)} leaves the server and cannot come back while banned.`}
          </p>
        </Confirm>
      )}
    </section>
  );
}
