/**
 * The portal's first page: heading "Applications", the person's applications, and
 * "New application" (a textbox "Name" and "Create"). A new application's token is shown
 * here once, in the read-only textbox "Token" with "Copy".
 */
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { ErrorLine, Field, Link, TokenShown, errorText, fieldError } from "../views/ui";
import type { Application } from "./types";

export function Applications({ base }: { base: string }) {
  const [apps, setApps] = useState<Application[] | null>(null);
  const [loadError, setLoadError] = useState<string>();
  const [created, setCreated] = useState<{ application: Application; token: string } | null>(null);
  useEffect(() => {
    document.title = "Applications · Parley";
    api<Application[]>("GET", "/applications").then(setApps, (e) => setLoadError(errorText(e)));
  }, []);
  function onCreated(r: { application: Application; token: string }) {
    setCreated(r);
    setApps([...(apps ?? []), r.application]);
  }
  return (
    <div class="portal">
      <h1>Applications</h1>
      <p class="muted">
        An application is a bot: it gets a token to connect with, intents, and an install link people use to add it to their servers.
      </p>
      {created && (
        <section class="card created" aria-labelledby="created-title">
          <h2 id="created-title">{created.application.name} is ready</h2>
          <TokenShown token={created.token} />
          <p>
            <Link href={`${base}/applications/${created.application.id}`}>Open {created.application.name}</Link> to set its intents and find
            its install link.
          </p>
        </section>
      )}
      <ErrorLine error={loadError} />
      {apps && !apps.length && <p class="muted">You have no application yet.</p>}
      {apps && apps.length > 0 && (
        <ul class="app-list" aria-label="Your applications">
          {apps.map((a) => (
            <li key={a.id}>
              <Link href={`${base}/applications/${a.id}`}>{a.name}</Link>
              <span class="muted"> · {a.guilds.length === 1 ? "in 1 server" : `in ${a.guilds.length} servers`}</span>
            </li>
          ))}
        </ul>
      )}
      <NewApplication onCreated={onCreated} />
    </div>
  );
}

function NewApplication({ onCreated }: { onCreated(r: { application: Application; token: string }): void }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  if (!open)
    return (
      <button type="button" class="primary" onClick={() => setOpen(true)}>
        New application
      </button>
    );
  async function create(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onCreated(await api<{ application: Application; token: string }>("POST", "/applications", { name: name.trim() }));
      setName("");
      setOpen(false);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  const nameError = fieldError(error, "name");
  return (
    <form class="card" onSubmit={create} noValidate aria-labelledby="new-app-title">
      <h2 id="new-app-title">New application</h2>
      <Field
        id="app-name"
        label="Name"
        value={name}
        onInput={setName}
        error={nameError}
        hint="2 to 32 characters; it is also the bot's name."
      />
      <ErrorLine error={error && !nameError ? errorText(error) : undefined} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          Create
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
