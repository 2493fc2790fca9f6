/**
 * An application's page: name, description and interactions endpoint URL ("Save"), its
 * icon (the bot's avatar), intents and their approval, "Reset token" (confirmed, the new
 * token shown once), the public key, the install link, the servers its bot is in
 * ("Remove" each) and "Delete application" (confirmed). Another person's application is simply not found (404).
 */
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { api, ApiError } from "../api";
import { go } from "../router";
import { Confirm, CopyField, ErrorLine, Field, Link, TokenShown, errorText, fieldError } from "../views/ui";
import { Icon } from "./Icon";
import { Intents } from "./Intents";
import { Keys } from "./Keys";
import type { Application } from "./types";
import { useFocusThrough } from "../views/focus";

export function AppPage({ base, id }: { base: string; id: string }) {
  const [app, setApp] = useState<Application | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  useEffect(() => {
    setApp(null);
    setMissing(null);
    api<Application>("GET", `/applications/${encodeURIComponent(id)}`).then(setApp, (e) =>
      setMissing(e instanceof ApiError && e.status === 404 ? "404: no application of yours has this id." : errorText(e)),
    );
  }, [id]);
  useEffect(() => {
    document.title = `${app?.name ?? "Application"} · Parley`;
  }, [app?.name]);
  if (missing)
    return (
      <div class="portal">
        <h1>Application not found</h1>
        <p>{missing}</p>
        <Link href={base}>Back to Applications</Link>
      </div>
    );
  if (!app) return <p class="muted">Loading…</p>;
  return (
    <div class="portal">
      <p>
        <Link href={base}>← Applications</Link>
      </p>
      <h1>{app.name}</h1>
      <General app={app} onSaved={setApp} />
      <Icon app={app} />
      <Intents app={app} onChanged={setApp} />
      <Token app={app} onChanged={setApp} />
      <Keys app={app} />
      <Servers app={app} onChanged={setApp} />
      <Delete app={app} onDeleted={() => go(base)} />
    </div>
  );
}

function General({ app, onSaved }: { app: Application; onSaved(a: Application): void }) {
  const [name, setName] = useState(app.name);
  const [description, setDescription] = useState(app.description);
  const [url, setUrl] = useState(app.interactions_endpoint_url ?? "");
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  useFocusThrough(busy);
  async function save(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      onSaved(
        await api<Application>("PATCH", `/applications/${app.id}`, {
          name: name.trim(),
          description,
          interactions_endpoint_url: url.trim() || null,
        }),
      );
      setSaved(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  const errors = {
    name: fieldError(error, "name"),
    description: fieldError(error, "description"),
    url: fieldError(error, "interactions_endpoint_url"),
  };
  const other = error && !errors.name && !errors.description && !errors.url ? errorText(error) : undefined;
  return (
    <form class="card" onSubmit={save} noValidate aria-labelledby="general-title">
      <h2 id="general-title">General information</h2>
      <Field
        id="name"
        label="Name"
        value={name}
        onInput={setName}
        error={errors.name}
        hint="2 to 32 characters; it is also the bot's name."
      />
      <Field
        id="description"
        label="Description"
        value={description}
        onInput={setDescription}
        error={errors.description}
        multiline
        hint="Shown on the install page. Up to 400 characters."
      />
      <Field
        id="interactions-url"
        label="Interactions endpoint URL"
        value={url}
        onInput={setUrl}
        error={errors.url}
        placeholder="https://example.com/interactions"
        hint="https only. Parley stores it but delivers interactions over the gateway."
      />
      <ErrorLine error={other} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          Save
        </button>
        <span role="status" class="hint">
          {saved ? "Saved." : ""}
        </span>
      </div>
    </form>
  );
}

function Token({ app, onChanged }: { app: Application; onChanged(a: Application): void }) {
  const [asking, setAsking] = useState(false);
  const [token, setToken] = useState<string | null>(null);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  useFocusThrough(busy);
  const shown = useRef<HTMLDivElement>(null);
  const fresh = useRef(false);
  // The dialog that had focus is gone: the new token, to be copied now or never, takes it
  // (as at creation), so a screen reader says what appeared rather than "Reset token" again.
  // After the dialog has given focus back, which it does as it leaves; a cancel keeps that.
  useLayoutEffect(() => {
    if (asking || !fresh.current) return;
    fresh.current = false;
    shown.current?.querySelector("input")?.focus();
  }, [token, asking]);
  async function reset() {
    setBusy(true);
    setError(undefined);
    try {
      const made = (await api<{ token: string }>("POST", `/applications/${app.id}/token`)).token;
      fresh.current = true;
      setToken(made);
      setAsking(false);
      onChanged(await api<Application>("GET", `/applications/${app.id}`));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <section class="card" aria-labelledby="token-title">
      <h2 id="token-title">Bot token</h2>
      <p>The token was shown once, when it was made: Parley keeps only a digest. This is token version {app.token_version}.</p>
      {token && (
        <div ref={shown}>
          <TokenShown token={token} />
        </div>
      )}
      <button type="button" onClick={() => setAsking(true)}>
        Reset token
      </button>
      {!asking && <ErrorLine error={error} />}
      {asking && (
        <Confirm title="Reset the token?" confirm="Reset" busy={busy} error={error} onConfirm={reset} onCancel={() => setAsking(false)}>
          <p>A new token is made and shown once. The current token stops working at once: a bot using it is disconnected.</p>
        </Confirm>
      )}
    </section>
  );
}

/**
 * The servers the bot is in, each with its Server ID (the snowflake the bot knows it by,
 * which a deploy script registers the server's commands under) and Remove.
 */
function Servers({ app, onChanged }: { app: Application; onChanged(a: Application): void }) {
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [flakes, setFlakes] = useState<Record<string, string>>({});
  const listed = app.guilds.map((g) => g.id).join();
  useEffect(() => {
    // Shown when known; the list stands without them.
    api<{ guild_ids: Record<string, string> }>("GET", `/applications/${app.id}/bot-ids`).then(
      (r) => setFlakes(r.guild_ids),
      () => {},
    );
  }, [app.id, listed]);
  async function remove(guildId: string) {
    setErrors({ ...errors, [guildId]: undefined });
    try {
      await api("DELETE", `/applications/${app.id}/guilds/${guildId}`);
      onChanged(await api<Application>("GET", `/applications/${app.id}`));
    } catch (e) {
      setErrors({ ...errors, [guildId]: errorText(e) });
    }
  }
  return (
    <section class="card" aria-labelledby="servers-title">
      <h2 id="servers-title">Servers</h2>
      {!app.guilds.length && <p class="muted">The bot is in no server yet. Share the install link.</p>}
      {app.guilds.length > 0 && (
        <p class="hint wraps">
          A server's ID is what a bot registers that server's commands under:{" "}
          <code>Routes.applicationGuildCommands(&lt;Application ID&gt;, &lt;Server ID&gt;)</code>, or{" "}
          <code>discord.Object(id=&lt;Server ID&gt;)</code> in discord.py.
        </p>
      )}
      <ul class="rows" aria-label="Servers the bot is in">
        {app.guilds.map((g) => (
          <li key={g.id}>
            <span class="row-name">{g.name}</span>
            {flakes[g.id] && (
              <CopyField
                id={`server-id-${g.id}`}
                label={`Server ID of ${g.name}`}
                value={flakes[g.id]}
                copyLabel={`Copy server ID of ${g.name}`}
              />
            )}
            <button type="button" aria-label={`Remove from ${g.name}`} onClick={() => remove(g.id)}>
              Remove
            </button>
            <ErrorLine error={errors[g.id]} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function Delete({ app, onDeleted }: { app: Application; onDeleted(): void }) {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  useFocusThrough(busy);
  async function remove() {
    setBusy(true);
    setError(undefined);
    try {
      await api("DELETE", `/applications/${app.id}`);
      onDeleted();
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  }
  return (
    <section class="card danger-zone" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete</h2>
      <button type="button" class="danger" onClick={() => setAsking(true)}>
        Delete application
      </button>
      {asking && (
        <Confirm
          title={`Delete ${app.name}?`}
          confirm="Delete"
          busy={busy}
          error={error}
          onConfirm={remove}
          onCancel={() => setAsking(false)}
        >
          <p>Its bot leaves every server and its token stops working at once. This cannot be undone.</p>
        </Confirm>
      )}
    </section>
  );
}
