/**
 * The install page ({portal_url}/install/<application_id>, spec 5.10): the
 * application's name and description, a combobox "Server" listing only the servers where
 * the person holds Manage Server, Administrator or ownership, what the bot may do there
 * (what everyone may: there is no permissions picker, so it is said), and "Install"; then a
 * confirmation with a link to the server, which takes focus from the form it replaces.
 * (Signing in first is the frame's part: the page is the same URL before and after.)
 */
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { api, ApiError } from "../api";
import { BIT, holds } from "../names";
import { me } from "../state";
import type { Guild } from "../types";
import { ErrorLine, errorText } from "../views/ui";
import type { InstallInfo } from "./types";
import { useFocusThrough } from "../views/focus";

function manages(g: Guild): boolean {
  return g.owner_id === me.value?.id || holds(g, BIT.MANAGE_GUILD);
}

export function Install({ id }: { id: string }) {
  const [info, setInfo] = useState<InstallInfo | null>(null);
  const [guilds, setGuilds] = useState<Guild[] | null>(null);
  const [missing, setMissing] = useState<string>();
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<Guild | null>(null);
  useEffect(() => {
    api<InstallInfo>("GET", `/applications/${encodeURIComponent(id)}/install`).then(setInfo, (e) =>
      setMissing(e instanceof ApiError && e.status === 404 ? "There is no application with this id." : errorText(e)),
    );
    api<Guild[]>("GET", "/guilds").then(
      (gs) => setGuilds(gs.filter(manages)),
      (e) => setError(errorText(e)),
    );
  }, [id]);
  useEffect(() => {
    document.title = `Install ${info?.name ?? "an application"} · Parley`;
  }, [info?.name]);

  if (missing)
    return (
      <div class="portal install">
        <h1>Application not found</h1>
        <p>{missing}</p>
      </div>
    );
  if (!info || !guilds) return <ErrorLine error={error} />;
  if (done) return <Installed name={info.name} guild={done} />;
  return <InstallForm info={info} guilds={guilds} onDone={setDone} />;
}

function Installed({ name, guild }: { name: string; guild: Guild }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The form that had focus is gone: a keyboard goes on from here, not from the top of the page.
  useLayoutEffect(() => heading.current?.focus(), []);
  return (
    <div class="portal install">
      <h1 tabIndex={-1} ref={heading}>
        {name} was added
      </h1>
      <p role="status">
        {name} is now a member of {guild.name}.
      </p>
      <p>
        <a href={`/channels/${guild.id}`}>Open {guild.name}</a>
      </p>
    </div>
  );
}

function InstallForm({ info, guilds, onDone }: { info: InstallInfo; guilds: Guild[]; onDone(g: Guild): void }) {
  const there = (g: Guild) => info.installed_in.includes(g.id);
  const [choice, setChoice] = useState(guilds.find((g) => !there(g))?.id ?? "");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  useFocusThrough(busy);
  async function install(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await api("POST", `/applications/${info.id}/install`, { guild_id: choice });
      onDone(guilds.find((g) => g.id === choice)!);
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  }
  const none = !guilds.length;
  // Every server one manages already holds the bot: nothing is left to install into.
  const everywhere = !none && guilds.every(there);
  return (
    <form class="portal install card" onSubmit={install} noValidate>
      <p class="muted">An application wants to join a server you manage</p>
      <h1>{info.name}</h1>
      {info.description ? <p class="description">{info.description}</p> : <p class="muted">No description.</p>}
      <div class="field">
        <label for="server">Server</label>
        <select
          id="server"
          value={choice}
          disabled={none}
          aria-describedby={none ? "no-server" : everywhere ? "everywhere" : "server-hint"}
          onChange={(e) => setChoice(e.currentTarget.value)}
        >
          {guilds.map((g) => (
            <option key={g.id} value={g.id} disabled={there(g)}>
              {there(g) ? `${g.name} (already added)` : g.name}
            </option>
          ))}
        </select>
        {none ? (
          <small id="no-server" class="hint">
            You manage no server: adding a bot takes Manage Server, Administrator or ownership of a server.
          </small>
        ) : everywhere ? (
          <small id="everywhere" class="hint">
            {info.name} is already in every server you manage.
          </small>
        ) : (
          <small id="server-hint" class="hint">
            Servers where you hold Manage Server, Administrator or ownership.
          </small>
        )}
      </div>
      <p id="install-rights">
        No permissions are asked for here: {info.name} joins as a member, with what everyone in the server may do. To let it do more (manage
        messages, kick members…), give it a role in the server's settings.
      </p>
      <ErrorLine error={error} />
      <button type="submit" class="primary" disabled={busy || none || !choice} aria-describedby="install-rights">
        Install
      </button>
    </form>
  );
}
