/**
 * The member list: a `complementary` landmark named "Members", online first (grouped under
 * each hoisted role, "Display separately", highest first, as the reference shows them),
 * bots tagged; each row named as it is read ("Olive, owner, online"); a name opens the
 * person's profile card.
 */
import { displayName, guildOf, me, members, route, showNotice, users } from "../state";
import { ApiError } from "../api";
import { openDmWith } from "../load";
import { AppsMenu, USER_COMMAND } from "./AppsMenu";
import type { Guild, Member } from "../types";
import { Avatar } from "./files/Avatar";
import { ProfileName } from "./ProfileCard";
import { Placeholders } from "./Placeholders";
import { focusComposer } from "./focus";

const ORDER: Record<string, number> = { online: 0, idle: 1, dnd: 2, offline: 3 };
const WORDS: Record<string, string> = { online: "online", idle: "idle", dnd: "do not disturb", offline: "offline" };

export function Members({ guildId, hidden }: { guildId: string; hidden: boolean }) {
  const loaded = members.value[guildId];
  const list = loaded ?? [];
  const g = guildOf(guildId);
  const presence = (m: Member) => users.value[m.user.id]?.presence ?? m.user.presence;
  const name = (m: Member) => m.nick || displayName(users.value[m.user.id] ?? m.user);
  const sorted = [...list].sort((a, b) => ORDER[presence(a)] - ORDER[presence(b)] || name(a).localeCompare(name(b)));
  const online = sorted.filter((m) => presence(m) !== "offline");
  const offline = sorted.filter((m) => presence(m) === "offline");
  const hoisted = (g?.roles ?? []).filter((r) => r.hoist && !r.everyone).sort((a, b) => b.position - a.position);
  // Each online member under their highest hoisted role; the rest under "Online".
  const groupOf = (m: Member) => hoisted.find((r) => m.roles.includes(r.id))?.id ?? null;
  const rest = online.filter((m) => groupOf(m) === null);
  return (
    <aside id="members" aria-label="Members" aria-busy={!loaded} class={`members${hidden ? " closed" : ""}`}>
      {!loaded && <Placeholders what="members" rows={4} />}
      {hoisted.map((r) => {
        const list = online.filter((m) => groupOf(m) === r.id);
        return (
          <Group
            key={r.id}
            title={`${r.name} — ${list.length}`}
            list={list}
            presence={presence}
            name={name}
            owner={g?.owner_id}
            guild={g}
          />
        );
      })}
      <Group title={`Online — ${rest.length}`} list={rest} presence={presence} name={name} owner={g?.owner_id} guild={g} />
      <Group title={`Offline — ${offline.length}`} list={offline} presence={presence} name={name} owner={g?.owner_id} guild={g} />
    </aside>
  );
}

interface GroupProps {
  title: string;
  list: Member[];
  presence(m: Member): string;
  name(m: Member): string;
  owner?: string;
  guild?: Guild;
}

function Group({ title, list, presence, name, owner, guild }: GroupProps) {
  if (!list.length) return null;
  return (
    <section>
      <h2>{title}</h2>
      <ul>
        {list.map((m) => (
          <li key={m.user.id} class={`member ${presence(m)}`} aria-label={[name(m), ...facts(m, presence(m), owner)].join(", ")}>
            <Avatar user={users.value[m.user.id] ?? m.user} name={name(m)} named />
            <span class={`presence ${presence(m)}`} aria-hidden="true" />
            <ProfileName guild={guild} userId={m.user.id} member={m} name={name(m)} onMessage={() => void messageTo(m.user.id)} />
            {/* The tags are seen; what is read is the one phrase below, commas where a reader pauses. */}
            {m.user.bot && (
              <span class="tag" aria-hidden="true">
                BOT
              </span>
            )}
            {m.user.id === owner && (
              <span class="owner" aria-hidden="true">
                owner
              </span>
            )}
            <span class="sr">{facts(m, presence(m), owner).join(", ")}</span>
            {m.user.id !== me.value?.id && (
              <button
                type="button"
                class="dm-open"
                aria-label={`Message ${name(m)}`}
                title="Direct message"
                onClick={() => void messageTo(m.user.id)}
              >
                ✉
              </button>
            )}
            {route.value.channel && <AppsMenu channelId={route.value.channel} type={USER_COMMAND} targetId={m.user.id} label={name(m)} />}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * What a row says of its person after the name, as words: "bot", "owner", the presence.
 * Read as one text ("owner, online"), never as separate bits a screen reader joins with
 * stray spaces ("owner , online").
 */
function facts(m: Member, presence: string, owner: string | undefined): string[] {
  return [m.user.bot ? "bot" : "", m.user.id === owner ? "owner" : "", WORDS[presence] ?? presence].filter(Boolean);
}

export async function messageTo(userId: string): Promise<void> {
  try {
    await openDmWith(userId);
    // The name or button that asked has left with the server's member list: on to writing, once drawn.
    requestAnimationFrame(focusComposer);
  } catch (e) {
    showNotice(`The direct message could not be opened: ${e instanceof ApiError ? e.message : "the server could not be reached"}`);
  }
}
