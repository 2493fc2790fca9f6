/**
 * The chat screen: Servers and Channels navigation, the open channel (its log, typing
 * line and composer), and the member list. On a phone-width screen one column shows at
 * a time; "Menu" opens the navigation and "Members" the member list.
 */
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { openChannel } from "../load";
import { channelLabel, dms, guildOf, guilds, liveState, loaded, logs, notice, route, showNotice } from "../state";
import type { Message } from "../types";
import { ChannelsNav, ServersNav } from "./Nav";
import { MessageList } from "./MessageList";
import { Composer } from "./Composer";
import { Members } from "./Members";
import { DmSecurity } from "./DmSecurity";
import { Welcome } from "./Welcome";
import { plainText } from "../plain-text";
import { ServerSettings, settingsFor } from "../settings/ServerSettings";
import { UserSettings, userSettingsOpen } from "../settings/UserSettings";
import { PinnedMessages } from "./Pins";
import { MentionsInbox } from "./Mentions";
import { NotifyControls } from "./NotificationSettings";
import { SearchBox } from "./Search";
import { useTabTitle } from "../title";
import { Backdrop, DrawerButton, useDrawers } from "./drawers";
import { focusComposer, focusLost } from "./focus";
import { UnreadMark, unreadText } from "./UnreadMark";
import { botIdPath, copyBotId, developerMode } from "../devmode";

/**
 * The first stop on the page (shown when focused): straight to the composer past the
 * navigation and the channel's tools; to the messages when one may not write here.
 */
function SkipToComposer() {
  return (
    <button type="button" class="skip" onClick={focusComposer}>
      Skip to the composer
    </button>
  );
}

/**
 * The phone's bar: "Menu" and "Members" open their drawers (views/drawers.tsx). The
 * navigation is out of sight there, so "Menu" carries its marks: "Menu, 2 mentions".
 */
function TopBar({ title, drawers, members }: { title: string; drawers: ReturnType<typeof useDrawers>; members: boolean }) {
  const everywhere = [...dms.value, ...guilds.value.flatMap((g) => g.channels)];
  const current = route.value.channel;
  return (
    <header class="topbar">
      <DrawerButton drawers={drawers} which="menu" class="menu">
        <span aria-hidden="true">Menu</span>
        <span class="sr">Menu{unreadText(everywhere, current)}</span>
        <UnreadMark channels={everywhere} current={current} inline />
      </DrawerButton>
      <h1>{title}</h1>
      {members && (
        <DrawerButton drawers={drawers} which="members" class="members-toggle">
          Members
        </DrawerButton>
      )}
    </header>
  );
}

/**
 * Where focus starts once the chat has first loaded (after signing in or up, or a page
 * that replaced the whole document, as "Accept invite" does): the open channel's message
 * box, else the pane's heading (the welcome), rather than the page's body. Only once,
 * and only while nothing else has focus: a person who has already moved on keeps their place.
 */
function useArrivalFocus(ready: boolean, channel: string | null): void {
  const arrived = useRef(false);
  useLayoutEffect(() => {
    if (arrived.current || !ready) return;
    arrived.current = true;
    if (!focusLost()) return;
    if (channel) return focusComposer();
    document.querySelector<HTMLElement>(".pane h2")?.focus();
  }, [ready, channel]);
}

/**
 * The message being replied to in the open channel (none after a switch). Deleted while the
 * reply was being written (it is no longer where it was in the loaded history), it is let
 * go with a word: the server would refuse the reply, and the text typed stays.
 */
function useReplyTo(channelId: string | undefined) {
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  useLayoutEffect(() => setReplyTo(null), [channelId]);
  const list = channelId ? logs.value[channelId]?.list : undefined;
  const gone = !!replyTo && !!list?.length && list[0].id <= replyTo.id && !list.some((m) => m.id === replyTo.id);
  useEffect(() => {
    if (!gone) return;
    setReplyTo(null);
    showNotice("The message you were replying to was deleted.");
  }, [gone]);
  return [replyTo, setReplyTo] as const;
}

export function Chat({ onSignOut, onAskSignOut }: { onSignOut(): void; onAskSignOut(): void }) {
  const drawers = useDrawers();
  const menu = drawers.open === "menu";
  const showMembers = drawers.open === "members";
  // Settings open in the pane: the drawer that opened them gets out of the way.
  useEffect(drawers.close, [settingsFor.value, userSettingsOpen.value]);
  const channel = openChannel();
  const [replyTo, setReplyTo] = useReplyTo(channel?.id);
  const guild = guildOf(route.value.guild);
  useTabTitle(channel ? `${channelLabel(channel)} · Parley` : "Parley");
  useArrivalFocus(loaded.value, channel?.id ?? null);
  return (
    <div class={`chat${menu ? " menu-open" : ""}${showMembers ? " members-open" : ""}${guild ? "" : " no-members"}`}>
      {channel && <SkipToComposer />}
      <TopBar title={channel ? channelLabel(channel) : (guild?.name ?? "Parley")} drawers={drawers} members={!!guild} />
      <div id="navigation" class="navigation">
        <ServersNav onPick={() => undefined} />
        <ChannelsNav onPick={drawers.close} onSignOut={onAskSignOut} />
      </div>
      <main class="pane">
        {guild && settingsFor.value === guild.id ? (
          <ServerSettings guild={guild} />
        ) : channel ? (
          <>
            <h2 class="channel-name">
              {channelLabel(channel)}
              {/* One line of words: Markdown's marks and mention tokens read as the log shows them. */}
              {channel.topic && <span class="topic"> — {plainText(channel.topic, channel.guild_id)}</span>}
            </h2>
            <div class="channel-tools">
              <PinnedMessages channel={channel} />
              <MentionsInbox />
              <NotifyControls channel={channel} />
              {developerMode.value && (
                <button type="button" onClick={() => void copyBotId("Channel", botIdPath.channel(channel.id))}>
                  Copy channel ID
                </button>
              )}
              {/* Keyed by server: words and results of one server are not another's (its More results would ask the wrong one). */}
              {channel.guild_id && <SearchBox key={channel.guild_id} guildId={channel.guild_id} />}
            </div>
            {channel.guild_id === null && <DmSecurity channel={channel} />}
            <MessageList channel={channel} onReply={setReplyTo} />
            <Composer channel={channel} replyTo={replyTo} onCancelReply={() => setReplyTo(null)} />
          </>
        ) : route.value.guild === "@me" && !guilds.value.length ? (
          <Welcome />
        ) : (
          <p class="muted empty">
            {route.value.guild === "@me"
              ? "Pick a direct message, or open one from a server's member list."
              : "This server has no text channel yet."}
          </p>
        )}
        <p class="notice" role="status">
          {liveState.value === "offline" ? "Reconnecting… " : ""}
          {notice.value}
        </p>
      </main>
      {drawers.open && <Backdrop onClose={drawers.close} />}
      {guild && <Members guildId={guild.id} hidden={!showMembers} />}
      {userSettingsOpen.value && (
        <UserSettings
          onSignedOut={() => {
            userSettingsOpen.value = false;
            onSignOut();
          }}
        />
      )}
    </div>
  );
}
