/**
 * Members, for those who may moderate them: per member "Roles for <name>" (a checkbox
 * per role, with Manage Roles), "Nickname for <name>", "Kick <name>" and "Ban <name>"
 * with a reason, a ban also with "Delete their messages" (bots included; a bot removed
 * gets GUILD_DELETE), both confirmed (ModerationConfirm.tsx, which shows a refusal the
 * page could not foresee). A member at or above one's own rank, and a role at or above
 * it, is not offered (rank.ts: disabled, with the reason); a refused role or nickname
 * shows beside the member.
 */
import { useState } from "preact/hooks";
import { api } from "../api";
import { BIT, holds } from "../names";
import { displayName, me, members } from "../state";
import type { Guild, Member } from "../types";
import { ErrorLine, errorText } from "../views/ui";
import { MEMBER_ABOVE, mayActOn, mayManageRole, ROLE_ABOVE } from "./rank";
import { ModerationConfirm, type ModerationKind } from "./ModerationConfirm";

type Action = { kind: ModerationKind; member: Member };

const nameOf = (m: Member) => m.nick || displayName(m.user);

export function MemberModeration({ guild }: { guild: Guild }) {
  const list = (members.value[guild.id] ?? []).filter((m) => m.user.id !== me.value?.id && m.user.id !== guild.owner_id);
  const [asking, setAsking] = useState<Action | null>(null);
  const [status, setStatus] = useState("");
  const ask = (kind: ModerationKind, member: Member) => {
    setStatus("");
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
          <MemberRow key={m.user.id} guild={guild} member={m} onAsk={ask} onDone={setStatus} />
        ))}
      </ul>
      {asking && (
        <ModerationConfirm
          guild={guild}
          kind={asking.kind}
          userId={asking.member.user.id}
          name={nameOf(asking.member)}
          onDone={(done) => {
            setStatus(done);
            setAsking(null);
          }}
          onCancel={() => setAsking(null)}
        />
      )}
    </section>
  );
}

/** One member's row: their editor, Kick and Ban, each disabled when they rank at or above the person. */
function MemberRow(props: { guild: Guild; member: Member; onAsk(kind: ModerationKind, m: Member): void; onDone(s: string): void }) {
  const { guild, member: m } = props;
  const below = mayActOn(guild, m.user.id);
  const why = below ? undefined : MEMBER_ABOVE;
  return (
    <li>
      <span class="row-name">
        {nameOf(m)} {m.user.bot && <span class="tag">BOT</span>}
      </span>
      {holds(guild, BIT.MANAGE_ROLES) && <MemberEditor guild={guild} member={m} below={below} onDone={props.onDone} />}
      {holds(guild, BIT.KICK_MEMBERS) && (
        <button type="button" disabled={!below} title={why} onClick={() => props.onAsk("kick", m)}>
          Kick {nameOf(m)}
        </button>
      )}
      {holds(guild, BIT.BAN_MEMBERS) && (
        <button type="button" class="danger" disabled={!below} title={why} onClick={() => props.onAsk("ban", m)}>
          Ban {nameOf(m)}
        </button>
      )}
      {!below && <span class="hint">{MEMBER_ABOVE}</span>}
    </li>
  );
}

/** A member's roles (a checkbox each) and nickname, saved at once; the server decides by rank. */
function MemberEditor({ guild, member, below, onDone }: { guild: Guild; member: Member; below: boolean; onDone(s: string): void }) {
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
          {roles.map((r) => {
            const may = below && mayManageRole(guild, r.position);
            return (
              <label key={r.id} class="check" title={may || !below ? undefined : ROLE_ABOVE}>
                <input
                  type="checkbox"
                  checked={member.roles.includes(r.id)}
                  disabled={!may}
                  onChange={(e) => toggle(r.id, e.currentTarget.checked)}
                />
                {r.name}
              </label>
            );
          })}
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
        <input
          id={`nick-${member.user.id}`}
          value={nick}
          maxLength={32}
          disabled={!below}
          onInput={(e) => setNick(e.currentTarget.value)}
        />
        <button type="submit" disabled={!below}>
          Save nickname for {name}
        </button>
      </form>
      <ErrorLine error={error} />
    </div>
  );
}
