/**
 * The two navigation landmarks: "Servers" (one entry per server, named by its name:
 * its icon's alternative text, or its initials shown and its name for screen readers;
 * and "Direct messages") and "Channels" (one entry per channel, its name first, then
 * its unread and mention marks; a category's channels in a list named by the category,
 * under its name; above them a server's actions: Server settings, Leave server, Change
 * nickname and, while something is unread, Mark as read), with the person, User settings
 * and Sign out at the foot.
 */
import { Fragment } from "preact";
import { markServerRead, open } from "../load";
import { closeDm } from "../actions";
import { channelGroups } from "../channel-groups";
import { channelLabel, displayName, dms, guildOf, guilds, me, readStates, route } from "../state";
import type { Channel, Guild } from "../types";
import { SettingsButton, settingsFor } from "../settings/ServerSettings";
import { userSettingsOpen } from "../settings/UserSettings";
import { channelText, channelUnread, UnreadMark, unreadText } from "./UnreadMark";
import { mutedNow } from "../notify";
import { Avatar } from "./files/Avatar";
import { ServerDialogs, serverDialog } from "./Welcome";
import { MyNickname } from "./MyNickname";
import { botIdPath, copyBotId, developerMode } from "../devmode";

const TEXT = new Set([0, 5]);

/** Muted channels, and those of a muted server, leave their server unmarked (notify.ts's mutedNow). */
function hasUnread(channels: Channel[]): boolean {
  return channels.some((c) => readStates.value[c.id]?.unread && !mutedNow(c).either);
}

export function ServersNav({ onPick }: { onPick(): void }) {
  const r = route.value;
  // Going somewhere else leaves the server settings, as picking a channel does.
  const go = (guild: string) => {
    settingsFor.value = null;
    void open({ guild, channel: null });
    onPick();
  };
  return (
    <nav aria-label="Servers" class="servers">
      <ul>
        <li>
          <button
            type="button"
            class={`server${hasUnread(dms.value) ? " unread" : ""}`}
            aria-current={r.guild === "@me" ? "page" : undefined}
            title="Direct messages"
            onClick={() => go("@me")}
          >
            <span aria-hidden="true">✉</span>
            <span class="sr">Direct messages{unreadText(dms.value, r.channel)}</span>
            <UnreadMark channels={dms.value} current={r.channel} />
          </button>
        </li>
        {guilds.value.map((g) => (
          <li key={g.id}>
            <button
              type="button"
              class={`server${hasUnread(g.channels) ? " unread" : ""}`}
              aria-current={r.guild === g.id ? "page" : undefined}
              // An icon's alternative text and the marks after it were read with a stray space
              // between ("Club , 1 mention"): with an icon, the button says its name in one piece.
              aria-label={g.icon ? `${g.name}${unreadText(g.channels, r.channel)}` : undefined}
              title={g.name}
              onClick={() => go(g.id)}
            >
              {g.icon ? (
                <img class="server-icon" src={`/icons/${g.id}/${g.icon}.png?size=96`} alt={g.name} width={48} height={48} />
              ) : (
                <span aria-hidden="true">{initials(g.name)}</span>
              )}
              <span class="sr">
                {g.icon ? "" : g.name}
                {unreadText(g.channels, r.channel)}
              </span>
              <UnreadMark channels={g.channels} current={r.channel} />
            </button>
          </li>
        ))}
      </ul>
      <AddServer />
    </nav>
  );
}

function initials(name: string): string {
  return (
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => [...w][0])
      .join("")
      .toUpperCase() || "?"
  );
}

/** Join with an invite, or create a server: two dialogs (views/Welcome.tsx). */
function AddServer() {
  return (
    <>
      <button
        type="button"
        class="server add"
        title="Create a server"
        aria-label="Create a server"
        onClick={() => (serverDialog.value = "create")}
      >
        +
      </button>
      <button
        type="button"
        class="server add"
        title="Join a server"
        aria-label="Join a server"
        onClick={() => (serverDialog.value = "join")}
      >
        ⤵
      </button>
      <ServerDialogs />
    </>
  );
}

/** "Mark as read": the server's channels all read at once; offered while any but the open one is marked. */
function MarkServerRead({ guild, current }: { guild: Guild; current: string | null }) {
  if (!unreadText(guild.channels, current)) return null;
  const mark = async (e: Event) => {
    const button = e.currentTarget as HTMLButtonElement;
    // The button goes with the marks: focus stays near, on the action before it (Change nickname).
    const before = button.previousElementSibling as HTMLElement | null;
    await markServerRead(guild.id);
    if (document.activeElement === button || document.activeElement === document.body) before?.focus();
  };
  return (
    <button type="button" class="server-action" onClick={(e) => void mark(e)}>
      Mark as read
    </button>
  );
}

export function ChannelsNav({ onPick, onSignOut }: { onPick(): void; onSignOut(): void }) {
  const r = route.value;
  const g = r.guild === "@me" ? null : guildOf(r.guild);
  // A server's channels under their categories (each a list named by it); DMs in one list.
  const groups = g ? channelGroups(g, (c) => TEXT.has(c.type)) : [{ category: null, channels: byRecency(dms.value) }];
  // A channel picked while the server settings fill the page is a wish to read it: they close.
  const pick = (c: Channel) => {
    settingsFor.value = null;
    void open({ guild: r.guild, channel: c.id });
    onPick();
  };
  const none = groups.every((x) => !x.channels.length);
  return (
    <nav aria-label="Channels" class="channels">
      <h2>{g ? g.name : "Direct messages"}</h2>
      {g && <SettingsButton guild={g} />}
      {g && <MyNickname guild={g} />}
      {g && <MarkServerRead guild={g} current={r.channel} />}
      {g && developerMode.value && (
        <button type="button" class="server-action" onClick={() => void copyBotId("Server", botIdPath.server(g.id))}>
          Copy server ID
        </button>
      )}
      <div class="channel-lists">
        {groups.map(({ category, channels }) => (
          <Fragment key={category?.id ?? "top"}>
            {category && (
              <h3 class="category" id={`category-${category.id}`}>
                {category.name}
              </h3>
            )}
            {(category || channels.length > 0 || none) && (
              <ul aria-labelledby={category ? `category-${category.id}` : undefined}>
                {channels.map((c) => (
                  <li key={c.id} class={g ? undefined : "dm"}>
                    <ChannelEntry channel={c} current={r.channel === c.id} onPick={() => pick(c)} />
                    {!g && <CloseDm channel={c} current={r.channel === c.id} />}
                  </li>
                ))}
                {!category && none && <li class="empty">{g ? "No text channels yet." : "No direct messages yet."}</li>}
              </ul>
            )}
          </Fragment>
        ))}
      </div>
      <footer class="me">
        <Avatar user={me.value ?? undefined} name={displayName(me.value)} />
        <span class={`presence ${me.value?.presence ?? "offline"}`} aria-hidden="true" />
        <span>{displayName(me.value)}</span>
        <button type="button" class="link" aria-haspopup="dialog" onClick={() => (userSettingsOpen.value = true)}>
          User settings
        </button>
        <button type="button" class="link" onClick={onSignOut}>
          Sign out
        </button>
      </footer>
      <p class="elsewhere">
        <a href="/developers">Developer portal</a>
        {me.value?.admin && <a href="/admin">Administration</a>}
      </p>
    </nav>
  );
}

/**
 * Named as a server's entry is, by one hidden phrase ("general, unread, 1 mention"): the
 * visible name, marks and badge are hidden from screen readers, since the name and a
 * hidden span beside it were read with a stray space between ("general , unread").
 */
function ChannelEntry({ channel, current, onPick }: { channel: Channel; current: boolean; onPick(): void }) {
  const here = current ? channel.id : null;
  const unread = channelUnread(channel, here);
  const muted = mutedNow(channel).channel;
  const label = channel.guild_id === null ? channelLabel(channel).slice(1) : (channel.name ?? "");
  return (
    <button
      type="button"
      class={`channel${unread ? " unread" : ""}${muted ? " muted" : ""}`}
      aria-current={current ? "page" : undefined}
      onClick={onPick}
    >
      <span aria-hidden="true" class="sigil">
        {channel.guild_id === null ? "@" : "#"}
      </span>
      <span aria-hidden="true" class="name">
        {label}
      </span>
      <span class="sr">
        {label}
        {channelText(channel, here)}
      </span>
      <UnreadMark channels={[channel]} current={here} inline />
    </button>
  );
}

/** Conversations as the person left them: the one with the newest message first (ids are time-ordered). */
function byRecency(list: Channel[]): Channel[] {
  const at = (c: Channel) => c.last_message_id ?? c.id;
  return [...list].sort((a, b) => (at(a) < at(b) ? 1 : at(a) > at(b) ? -1 : 0));
}

/**
 * Close a conversation: out of the list until its next message. The one being read
 * closes into the DM home, and focus goes to the list's heading rather than the body.
 */
function CloseDm({ channel, current }: { channel: Channel; current: boolean }) {
  const name = channelLabel(channel).slice(1);
  const close = async (e: Event) => {
    const heading = (e.currentTarget as HTMLElement).closest("nav")?.querySelector("h2");
    if (!(await closeDm(channel))) return;
    if (current) await open({ guild: "@me", channel: null });
    if (heading instanceof HTMLElement) {
      heading.tabIndex = -1;
      heading.focus();
    }
  };
  return (
    <button type="button" class="close-dm" title="Close conversation" aria-label={`Close conversation with ${name}`} onClick={close}>
      ×
    </button>
  );
}
