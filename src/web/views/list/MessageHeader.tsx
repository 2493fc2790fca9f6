/**
 * A message's header: avatar, author, time ("Today at 14:02"), edited, the DM's
 * encryption mark and the author's apps. A message grouped under the one before keeps
 * the author's name in the article's accessible name (screen readers still hear who
 * wrote it) but does not show it; its time shows as the clock alone, on hover.
 */
import type { Message } from "../../types";
import { E2eMark } from "../Encrypted";
import { AppsMenu, USER_COMMAND } from "../AppsMenu";
import { Avatar } from "../files/Avatar";
import { postedAt } from "./times";
import { guilds, members, users } from "../../state";
import { ProfileName, roleColor } from "../ProfileCard";
import { messageTo } from "../Members";

/** The colour of the author's highest coloured role in the open server, if any. */
function authorColor(userId: string, guildId: string | null): string | undefined {
  const member = guildId ? members.value[guildId]?.find((x) => x.user.id === userId) : undefined;
  return (
    member &&
    roleColor(
      guilds.value.find((g) => g.id === guildId),
      member,
    )
  );
}

function AuthorName({ m, name, guild }: { m: Message; name: string; guild: string }) {
  const member = members.value[guild]?.find((x) => x.user.id === m.author.id);
  return (
    <ProfileName
      guild={guilds.value.find((g) => g.id === guild)}
      userId={m.author.id}
      member={member}
      name={name}
      id={`a-${m.id}`}
      messageId={m.id}
      onMessage={() => void messageTo(m.author.id)}
    />
  );
}

interface Props {
  m: Message;
  name: string;
  /** The open server; null in a DM. */
  guild: string | null;
  grouped: boolean;
}

export function MessageHeader({ m, name, guild, grouped }: Props) {
  const d = new Date(m.created_at);
  if (grouped)
    return (
      <header class="grouped-header">
        <span id={`a-${m.id}`} class="sr-only">
          {name}
        </span>
        <time id={`t-${m.id}`} dateTime={m.created_at} title={d.toLocaleString()}>
          {d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })}
        </time>
        {m.edited_at && <span class="edited">(edited)</span>}
        {guild === null && <E2eMark m={m} />}
      </header>
    );
  return (
    <header>
      {/* The author as known now (a new picture shows on what they wrote before), as their name does. */}
      <Avatar user={users.value[m.author.id] ?? m.author} name={name} />
      {guild === null || m.ephemeral ? (
        <span id={`a-${m.id}`} class="author" style={{ color: authorColor(m.author.id, guild) }}>
          {name}
        </span>
      ) : (
        // The name opens the author's card, whether they are still here or have left.
        <AuthorName m={m} name={name} guild={guild} />
      )}
      {m.author.bot && <span class="tag">BOT</span>}
      <time id={`t-${m.id}`} dateTime={m.created_at} title={d.toLocaleString()}>
        {postedAt(m.created_at)}
      </time>
      {m.edited_at && <span class="edited">(edited)</span>}
      {guild === null && <E2eMark m={m} />}
      {!m.ephemeral && <AppsMenu channelId={m.channel_id} type={USER_COMMAND} targetId={m.author.id} label={name} />}
    </header>
  );
}
