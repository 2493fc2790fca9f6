/**
 * Server settings, inside the chat, for people who hold the permission: a navigation
 * ("Server settings") of sections, each shown to those who may use it: Overview (the
 * server's name with Manage Server; ownership for its owner), Roles and a channel's or a
 * category's overwrites (Manage Roles), Channels (Manage Channels: create, rename, topic, slow
 * mode, NSFW, order, categories, delete), Members (roles and nicknames with Manage Roles, Kick, Ban; bots included), Invites (Create Invite; the list with
 * Manage Server), Bans (Ban Members) and Audit log (View Audit Log). Each part shows
 * what the server refused next to its control: nothing fails silently.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { useOnChange } from "../hooks";
import { api } from "../api";
import { BIT, holds } from "../names";
import { guilds, me } from "../state";
import type { Channel, Guild } from "../types";
import { ErrorLine, Field, errorText, fieldError } from "../views/ui";
import { Roles } from "./Roles";
import { Overwrites } from "./Overwrites";
import { MemberModeration } from "./Moderation";
import { settingsFor, textChannels, useRequest } from "./common";
import { InviteManager } from "./Invites";
import { Bans } from "./Bans";
import { AuditLog } from "./AuditLog";
import { ChannelOrder } from "./ChannelOrder";
import { ChannelEdit } from "./ChannelEdit";
import { RoleList } from "./RoleList";
import { LeaveServer, OwnerActions } from "./Ownership";
import { Emoji, ServerIcon } from "./Images";

export { settingsFor } from "./common";

const SETTINGS_BITS = [
  "MANAGE_GUILD",
  "MANAGE_CHANNELS",
  "MANAGE_ROLES",
  "CREATE_INSTANT_INVITE",
  "KICK_MEMBERS",
  "BAN_MEMBERS",
  "VIEW_AUDIT_LOG",
  "MANAGE_EXPRESSIONS",
];

/** The sections, in the navigation's order, each with who may open it. */
const SECTIONS: { label: string; may(g: Guild): boolean; view(g: Guild): preact.JSX.Element }[] = [
  {
    label: "Overview",
    may: (g) => holds(g, BIT.MANAGE_GUILD) || g.owner_id === me.value?.id,
    view: (g) => (
      <>
        {holds(g, BIT.MANAGE_GUILD) && <Overview guild={g} />}
        {holds(g, BIT.MANAGE_GUILD) && <ServerIcon guild={g} />}
        <OwnerActions guild={g} />
      </>
    ),
  },
  {
    label: "Roles",
    may: (g) => holds(g, BIT.MANAGE_ROLES),
    view: (g) => (
      <>
        <RoleList guild={g} />
        <Roles guild={g} />
        <Overwrites guild={g} />
      </>
    ),
  },
  {
    label: "Channels",
    may: (g) => holds(g, BIT.MANAGE_CHANNELS),
    view: (g) => (
      <>
        <Channels guild={g} />
        <ChannelEdit guild={g} />
        <ChannelOrder guild={g} />
      </>
    ),
  },
  {
    label: "Members",
    // Manage Roles alone is enough: the core lets it give roles and set nicknames below one's rank.
    may: (g) => holds(g, BIT.KICK_MEMBERS) || holds(g, BIT.BAN_MEMBERS) || holds(g, BIT.MANAGE_ROLES),
    view: (g) => <MemberModeration guild={g} />,
  },
  { label: "Invites", may: (g) => holds(g, BIT.CREATE_INSTANT_INVITE), view: (g) => <InviteManager guild={g} /> },
  { label: "Bans", may: (g) => holds(g, BIT.BAN_MEMBERS), view: (g) => <Bans guild={g} /> },
  { label: "Emoji", may: (g) => holds(g, BIT.MANAGE_EXPRESSIONS), view: (g) => <Emoji guild={g} /> },
  { label: "Audit log", may: (g) => holds(g, BIT.VIEW_AUDIT_LOG), view: (g) => <AuditLog guild={g} /> },
];

/** Whether any part of the settings is the person's to use. */
export function hasSettings(g: Guild): boolean {
  return SETTINGS_BITS.some((n) => holds(g, BIT[n]));
}

export function SettingsButton({ guild }: { guild: Guild }) {
  const openNow = settingsFor.value === guild.id;
  return (
    <>
      {hasSettings(guild) && (
        <button
          type="button"
          class="settings-toggle"
          aria-pressed={openNow}
          onClick={() => (settingsFor.value = openNow ? null : guild.id)}
        >
          Server settings
        </button>
      )}
      {/* One per server: a confirmation asked for one server never stays open for the next one shown. */}
      <LeaveServer key={guild.id} guild={guild} />
    </>
  );
}

/** Close the settings, focus back on their button (or, where the rail is folded away, the composer). */
function closeSettings(): void {
  settingsFor.value = null;
  requestAnimationFrame(() => {
    const toggle = document.querySelector<HTMLElement>(".settings-toggle");
    const target = toggle?.offsetParent ? toggle : document.querySelector<HTMLElement>(".composer textarea");
    target?.focus();
  });
}

/** Escape from anywhere in the settings closes them; not from a dialog, a menu or a list that took it first. */
function onEscape(e: KeyboardEvent): void {
  if (e.key !== "Escape" || e.defaultPrevented || (e.target as Element).closest("dialog")) return;
  e.preventDefault();
  closeSettings();
}

export function ServerSettings({ guild }: { guild: Guild }) {
  const sections = SECTIONS.filter((x) => x.may(guild));
  const [current, setCurrent] = useState(sections[0]?.label ?? "");
  const section = sections.find((x) => x.label === current) ?? sections[0];
  const heading = useRef<HTMLHeadingElement>(null);
  const [lost, setLost] = useState("");
  useEffect(() => {
    document.title = `Server settings · ${guild.name} · Parley`;
  }, [guild.name]);
  // The open section taken away live (a role changed): say so, and keep focus in the
  // settings, since the control it was on is gone and focus would fall to the page's body.
  useOnChange(section?.label, () => {
    if (!current || sections.some((x) => x.label === current)) return;
    setLost(`${current} is no longer yours to use here.`);
    setCurrent(section?.label ?? "");
    if (!document.activeElement || document.activeElement === document.body) heading.current?.focus();
  });
  return (
    <section class="settings" aria-labelledby="settings-title" onKeyDown={onEscape}>
      <div class="settings-head">
        <h2 id="settings-title" ref={heading} tabIndex={-1}>
          Server settings
        </h2>
        <button type="button" onClick={closeSettings}>
          Close settings
        </button>
      </div>
      <p role="status" class="hint">
        {lost}
      </p>
      <nav aria-label="Server settings" class="section-nav">
        <ul>
          {sections.map((x) => (
            <li key={x.label}>
              <button
                type="button"
                aria-current={x.label === section?.label ? "page" : undefined}
                onClick={() => {
                  setLost("");
                  setCurrent(x.label);
                }}
              >
                {x.label}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      {section?.view(guild)}
    </section>
  );
}

function putGuild(g: Guild): void {
  guilds.value = guilds.value.map((x) => (x.id === g.id ? { ...x, ...g } : x));
}

function Overview({ guild }: { guild: Guild }) {
  const [name, setName] = useState(guild.name);
  const req = useRequest();
  const nameError = fieldError(req.error, "name");
  async function save(e: Event) {
    e.preventDefault();
    const g = await req.run(
      () => api<Guild>("PATCH", `/guilds/${guild.id}`, { name: name.trim() }),
      () => "Saved.",
    );
    if (g) putGuild(g);
  }
  return (
    <form class="card" onSubmit={save} noValidate aria-labelledby="overview-title">
      <h3 id="overview-title">Overview</h3>
      <div class="inline-form">
        <Field id="server-name" label="Server name" value={name} onInput={setName} error={nameError} />
        <button type="submit" class="primary" disabled={req.busy}>
          Save
        </button>
      </div>
      <Outcome req={req} field={nameError} />
    </form>
  );
}

function Channels({ guild }: { guild: Guild }) {
  const [name, setName] = useState("");
  const [topic, setTopic] = useState("");
  const req = useRequest();
  const nameError = fieldError(req.error, "name");
  async function create(e: Event) {
    e.preventDefault();
    const body = { name: name.trim(), topic: topic.trim() || undefined };
    const c = await req.run(
      () => api<Channel>("POST", `/guilds/${guild.id}/channels`, body),
      (c) => `#${c.name} created.`,
    );
    if (c) {
      setName("");
      setTopic("");
    }
  }
  return (
    <form class="card" onSubmit={create} noValidate aria-labelledby="channels-title">
      <h3 id="channels-title">Channels</h3>
      <p class="muted">
        {textChannels(guild)
          .map((c) => `#${c.name}`)
          .join(" · ") || "No text channel yet."}
      </p>
      <div class="inline-form">
        <Field id="channel-name" label="Channel name" value={name} onInput={setName} error={nameError} />
        <Field id="channel-topic" label="Topic" value={topic} onInput={setTopic} error={fieldError(req.error, "topic")} />
        <button type="submit" class="primary" disabled={req.busy}>
          Create channel
        </button>
      </div>
      <Outcome req={req} field={nameError} />
    </form>
  );
}

/**
 * What a form's request came to: its error (unless a field already shows it, beside the
 * field) and the status line a screen reader announces.
 */
function Outcome({ req, field }: { req: ReturnType<typeof useRequest>; field?: string }) {
  return (
    <>
      <ErrorLine error={req.error && !field ? errorText(req.error) : undefined} />
      <p role="status" class="hint">
        {req.status}
      </p>
    </>
  );
}
