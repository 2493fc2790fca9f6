/**
 * A name one can click: it opens a profile card (a dialog named by the person) with their
 * names, their roles in this server (highest first), and "Message"; for a moderator who
 * ranks above them, "Kick" and "Ban" too, each confirmed as in Server settings → Members
 * (settings/ModerationConfirm.tsx), so trouble seen in the member list is dealt with
 * there. The colour of a member's name is their highest coloured role's, made light
 * enough to read (colors.ts).
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../api";
import { displayName, me } from "../state";
import type { Guild, Member } from "../types";
import type { Profile } from "../../contract";
import { ErrorLine, errorText } from "./ui";
import { useModal } from "./modal";
import { readableRoleColor } from "../colors";
import { BIT, holds } from "../names";
import { mayActOn } from "../settings/rank";
import { ModerationConfirm, type ModerationKind } from "../settings/ModerationConfirm";
import { botIdPath, copyBotId, developerMode } from "../devmode";

/** The colour of the highest coloured role the member holds, if any (CSS). */
export function roleColor(guild: Guild | undefined, m: Member): string | undefined {
  const top = guild?.roles.filter((r) => r.color && m.roles.includes(r.id)).sort((a, b) => b.position - a.position)[0];
  return top ? readableRoleColor(top.color) : undefined;
}

export function ProfileName({
  guild,
  userId,
  member,
  name,
  id,
  messageId,
  onMessage,
}: {
  guild: Guild | undefined;
  userId: string;
  /** Their membership here; none for someone who has left (their messages stay). */
  member: Member | undefined;
  name: string;
  /** The element id a message's article is named by. */
  id?: string;
  /** The message the name is on: it lets a moderator see someone who has left the server. */
  messageId?: string;
  onMessage(): void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        id={id}
        class={id ? "author name" : "name link"}
        style={{ color: member && roleColor(guild, member) }}
        onClick={() => setOpen(true)}
      >
        {name}
      </button>
      {open && (
        <ProfileCard
          guild={guild}
          userId={userId}
          member={!!member}
          name={name}
          messageId={messageId}
          onMessage={onMessage}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

function ProfileCard({
  guild,
  userId,
  member,
  name,
  messageId,
  onMessage,
  onClose,
}: {
  guild: Guild | undefined;
  userId: string;
  /** Whether they are in this server now. */
  member: boolean;
  name: string;
  messageId?: string;
  onMessage(): void;
  onClose(): void;
}) {
  // Focus starts on the name, with who they are to read after it.
  const heading = useRef<HTMLHeadingElement>(null);
  const modal = useModal(onClose, heading);
  const [p, setP] = useState<Profile | null>(null);
  const [error, setError] = useState<string>();
  const guildId = guild?.id ?? null;
  // The card's answer says best whether they are here now: the member list may be behind.
  const here = p && guildId && userId !== me.value?.id ? p.mutual_guild_ids.includes(guildId) : member;
  useEffect(() => {
    const query = new URLSearchParams(guildId ? { guild_id: guildId, ...(messageId ? { message_id: messageId } : {}) } : {}).toString();
    void api<Profile>("GET", `/users/${userId}/profile${query ? `?${query}` : ""}`).then(setP, (e) => setError(errorText(e)));
  }, [userId]);
  return (
    <dialog ref={modal.ref} class="profile-card" aria-label={name}>
      <h2 tabIndex={-1} ref={heading}>
        {p ? displayName(p.user) : name}
      </h2>
      {p && (
        <p class="muted">
          @{p.user.username}
          {p.nick ? ` · ${p.nick} here` : ""}
          {p.user.bot ? " · bot" : ""}
        </p>
      )}
      {guild && !here && <p>Not in this server any more</p>}
      <ErrorLine error={error} />
      {p && p.roles.length > 0 && (
        <ul class="role-chips" aria-label="Roles here">
          {p.roles.map((r) => (
            <li key={r.id} style={{ color: r.color ? readableRoleColor(r.color) : undefined }}>
              {r.name}
            </li>
          ))}
        </ul>
      )}
      <div class="buttons">
        {userId !== me.value?.id && (here || !!p?.mutual_guild_ids.length) && (
          <button
            type="button"
            class="primary"
            onClick={() => {
              modal.close();
              onMessage();
            }}
          >
            Message
          </button>
        )}
        {guild && <CardModeration guild={guild} userId={userId} member={here} name={name} onDone={modal.close} />}
        {p && developerMode.value && (
          <button type="button" onClick={() => void copyBotId("User", botIdPath.user(userId))}>
            Copy user ID
          </button>
        )}
        <button type="button" onClick={modal.close}>
          Close
        </button>
      </div>
    </dialog>
  );
}

/**
 * Kick and Ban, offered as Server settings → Members offers them: the right, and a rank
 * above theirs. Someone who has left has no rank here (rankOf gives 0), so any moderator
 * may ban them, as the core allows; there is nothing to kick them from.
 */
function CardModeration({
  guild,
  userId,
  member,
  name,
  onDone,
}: {
  guild: Guild;
  userId: string;
  member: boolean;
  name: string;
  onDone(): void;
}) {
  const [moderating, setModerating] = useState<ModerationKind | null>(null);
  const may = (bit: number) => userId !== me.value?.id && holds(guild, bit) && mayActOn(guild, userId);
  return (
    <>
      {member && may(BIT.KICK_MEMBERS) && (
        <button type="button" onClick={() => setModerating("kick")}>
          Kick
        </button>
      )}
      {may(BIT.BAN_MEMBERS) && (
        <button type="button" class="danger" onClick={() => setModerating("ban")}>
          Ban
        </button>
      )}
      {moderating && (
        <ModerationConfirm
          guild={guild}
          kind={moderating}
          userId={userId}
          name={name}
          onDone={onDone}
          onCancel={() => setModerating(null)}
        />
      )}
    </>
  );
}
