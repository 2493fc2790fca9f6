/**
 * Members, for those who may moderate them: per member "Roles for <name>" (a checkbox
 * per role, with Manage Roles), "Nickname for <name>", "Kick <name>" and "Ban <name>"
 * with a reason (bots included; a bot removed gets GUILD_DELETE). Kick and Ban ask for
 * confirmation; the server's refusal (the role hierarchy, the owner) shows beside the
 * member.
 */
import { useState } from "preact/hooks";
import { api } from "../api";
import { BIT, holds } from "../names";
import { displayName, me, members } from "../state";
import type { Guild, Member } from "../types";
import { Confirm, ErrorLine, errorText } from "../views/ui";

type Action = { kind: "kick" | "ban"; member: Member };

const nameOf = (m: Member) => m.nick || displayName(m.user);

export function MemberModeration({ guild }: { guild: Guild }) {
  const list = (members.value[guild.id] ?? []).filter((m) => m.user.id !== me.value?.id && m.user.id !== guild.owner_id);
  const [asking, setAsking] = useState<Action | null>(null);
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);
  async function act(a: Action) {
    setBusy(true);
    setStatus("");
    setErrors({ ...errors, [a.member.user.id]: undefined });
    try {
      const why = reason.trim() ? { reason: reason.trim() } : {};
      if (a.kind === "kick") await api("DELETE", `/guilds/${guild.id}/members/${a.member.user.id}`, why);
      else await api("PUT", `/guilds/${guild.id}/bans/${a.member.user.id}`, why);
      setStatus(`${nameOf(a.member)} was ${a.kind === "kick" ? "kicked" : "banned"}.`);
    } catch (e) {
      setErrors({ ...errors, [a.member.user.id]: errorText(e) });
    } finally {
      setBusy(false);
      setAsking(null);
    }
  }
  const ask = (kind: Action["kind"], member: Member) => {
    setReason("");
    setAsking({ kind, member });
  };
  return (
    <section class="card" aria-labelledby="moderation-title">
      <h3 id="moderation-title">Members</h3>
      <p role="status" class="hint">
        {status}
      </p>
      {!list.length && <p class="muted">Nobody else is here yet: make an invite link in Invites.</p>}
      <ul class="rows" aria-label="Members to moderate">
        {list.map((m) => (
          <li key={m.user.id}>
            <span class="row-name">
              {nameOf(m)} {m.user.bot && <span class="tag">BOT</span>}
            </span>
            {holds(guild, BIT.MANAGE_ROLES) && <MemberEditor guild={guild} member={m} onDone={setStatus} />}
            {holds(guild, BIT.KICK_MEMBERS) && (
              <button type="button" onClick={() => ask("kick", m)}>
                Kick {nameOf(m)}
              </button>
            )}
            {holds(guild, BIT.BAN_MEMBERS) && (
              <button type="button" class="danger" onClick={() => ask("ban", m)}>
                Ban {nameOf(m)}
              </button>
            )}
            <ErrorLine error={errors[m.user.id]} />
          </li>
        ))}
      </ul>
      {asking && (
        <Confirm
          title={`${asking.kind === "kick" ? "Kick" : "Ban"} ${nameOf(asking.member)}?`}
          confirm={asking.kind === "kick" ? "Kick" : "Ban"}
          busy={busy}
          onConfirm={() => act(asking)}
          onCancel={() => setAsking(null)}
        >
          <p>
            {asking.kind === "kick"
              ? `${nameOf(asking.member)} leaves the server and can come back with an invite.`
              : `${nameOf(asking.member)} leaves the server and cannot come back while banned.`}
          </p>
          <div class="field">
            <label for="moderation-reason">Reason</label>
            <input id="moderation-reason" value={reason} maxLength={512} onInput={(e) => setReason(e.currentTarget.value)} />
          </div>
        </Confirm>
      )}
    </section>
  );
}

/** A member's roles (a checkbox each) and nickname, saved at once; the server decides by rank. */
function MemberEditor({ guild, member, onDone }: { guild: Guild; member: Member; onDone(s: string): void }) {
  const [nick, setNick] = useState(member.nick ?? "");
  const [error, setError] = useState<string>();
  const roles = guild.roles.filter((r) => !r.everyone).sort((a, b) => b.position - a.position);
  const name = nameOf(member);
  async function patch(body: { roles?: string[]; nick?: string | null }, done: string) {
    setError(undefined);
    try {
      await api("PATCH", `/guilds/${guild.id}/members/${member.user.id}`, body);
      onDone(done);
    } catch (e) {
      setError(errorText(e));
    }
  }
  const toggle = (roleId: string, on: boolean) => {
    const next = on ? [...member.roles, roleId] : member.roles.filter((r) => r !== roleId);
    void patch({ roles: next }, `${name}'s roles saved.`);
  };
  return (
    <div class="member-editor">
      {roles.length > 0 && (
        <fieldset>
          <legend>Roles for {name}</legend>
          {roles.map((r) => (
            <label key={r.id} class="check">
              <input type="checkbox" checked={member.roles.includes(r.id)} onChange={(e) => toggle(r.id, e.currentTarget.checked)} />
              {r.name}
            </label>
          ))}
        </fieldset>
      )}
      <form
        class="inline-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void patch({ nick: nick.trim() || null }, `${name}'s nickname saved.`);
        }}
      >
        <label for={`nick-${member.user.id}`}>Nickname for {name}</label>
        <input id={`nick-${member.user.id}`} value={nick} maxLength={32} onInput={(e) => setNick(e.currentTarget.value)} />
        <button type="submit">Save nickname for {name}</button>
      </form>
      <ErrorLine error={error} />
    </div>
  );
}
