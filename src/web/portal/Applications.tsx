/**
 * The portal's first page: heading "Applications", the person's applications, and
 * "New application" (a textbox "Name" and "Create"). A new application's token is shown
 * here once, in the read-only textbox "Token" with "Copy". Focus follows the form: into
 * Name when it opens, back on "New application" when cancelled, on the token once made.
 */
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { api } from "../api";
import { ErrorLine, Field, Link, TokenShown, errorText, fieldError } from "../views/ui";
import { focusLost, useFocusThrough } from "../views/focus";
import type { Application } from "./types";

export function Applications({ base }: { base: string }) {
  const [apps, setApps] = useState<Application[] | null>(null);
  const [loadError, setLoadError] = useState<string>();
  const [created, setCreated] = useState<{ application: Application; token: string } | null>(null);
  const shown = useRef<HTMLElement>(null);
  useEffect(() => {
    document.title = "Applications · Parley";
    api<Application[]>("GET", "/applications").then(setApps, (e) => setLoadError(errorText(e)));
  }, []);
  // The form that had focus is gone: the token, which is to be copied now or never, has it.
  useLayoutEffect(() => void shown.current?.querySelector("input")?.focus(), [created]);
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
        <section class="card created" aria-labelledby="created-title" ref={shown}>
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
  useFocusThrough(busy);
  const form = useRef<HTMLFormElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  // Whichever of the two is shown takes focus when it replaces the other (not when the page loads).
  const moved = useRef(false);
  useLayoutEffect(() => {
    if (!moved.current) return;
    if (open) form.current?.querySelector("input")?.focus();
    else if (focusLost()) opener.current?.focus();
  }, [open]);
  function toggle(next: boolean) {
    moved.current = true;
    setOpen(next);
  }
  if (!open)
    return (
      <button type="button" class="primary" ref={opener} onClick={() => toggle(true)}>
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
      // Made: the token takes focus (above), not the button.
      moved.current = false;
      setOpen(false);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  const nameError = fieldError(error, "name");
  return (
    <form class="card" onSubmit={create} noValidate aria-labelledby="new-app-title" ref={form}>
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
        <button type="button" onClick={() => toggle(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
