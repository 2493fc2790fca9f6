/**
 * User settings: a modal dialog opened from the person's panel, with a navigation of
 * sections ("User settings"). Account is the first: change one's password (the current
 * one first; every other session ends) and one's sessions, each with what signed in and
 * when it was last used, "Revoke <label>", this one marked, and "Sign out everywhere" (asked
 * once first: it signs this browser out too).
 * Profile, Notifications (settings/Notifications.tsx), Devices and Advanced (developer
 * mode, devmode.ts) follow.
 */
import { signal } from "@preact/signals";
import type { ComponentType } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../api";
import { Confirm, ErrorLine, Field, errorText, fieldError } from "../views/ui";
import { useModal } from "../views/modal";
import { useRequest } from "./common";
import { Devices, Profile } from "./Profile";
import { AvatarSetting } from "./Images";
import { Notifications } from "./Notifications";
import { developerMode, setDeveloperMode } from "../devmode";

/** Whether the dialog is open. */
export const userSettingsOpen = signal(false);

interface SectionProps {
  /** This browser's session has ended (revoked here, or everywhere): sign in again. */
  onSignedOut(): void;
}

const SECTIONS: { id: string; label: string; view: ComponentType<SectionProps> }[] = [
  { id: "account", label: "Account", view: Account },
  {
    id: "profile",
    label: "Profile",
    view: () => (
      <>
        <Profile />
        <AvatarSetting />
      </>
    ),
  },
  { id: "notifications", label: "Notifications", view: Notifications },
  { id: "devices", label: "Devices", view: Devices },
  { id: "advanced", label: "Advanced", view: Advanced },
];

/** Focus starts on its heading, with Close and the sections after it. */
export function UserSettings({ onSignedOut }: SectionProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const modal = useModal(() => (userSettingsOpen.value = false), heading);
  const [current, setCurrent] = useState(SECTIONS[0].id);
  const section = SECTIONS.find((s) => s.id === current) ?? SECTIONS[0];
  const View = section.view;
  return (
    <dialog ref={modal.ref} class="user-settings" aria-labelledby="user-settings-title">
      <div class="settings-head">
        <h2 id="user-settings-title" tabIndex={-1} ref={heading}>
          User settings
        </h2>
        <button type="button" onClick={modal.close}>
          Close
        </button>
      </div>
      <div class="user-settings-body">
        <nav aria-label="User settings">
          <ul>
            {SECTIONS.map((s) => (
              <li key={s.id}>
                <button type="button" aria-current={s.id === current ? "page" : undefined} onClick={() => setCurrent(s.id)}>
                  {s.label}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <View onSignedOut={onSignedOut} />
      </div>
    </dialog>
  );
}

/** Developer mode: "Copy ID" beside servers, channels, messages and people (devmode.ts). */
function Advanced() {
  return (
    <section class="card" aria-labelledby="advanced-title">
      <h3 id="advanced-title">Advanced</h3>
      <label class="check">
        <input
          type="checkbox"
          checked={developerMode.value}
          aria-describedby="developer-mode-hint"
          onChange={(e) => setDeveloperMode(e.currentTarget.checked)}
        />{" "}
        Developer mode
      </label>
      <p class="hint" id="developer-mode-hint">
        Adds “Copy ID” to servers, channels, messages and people: the IDs your bot sees, for its code and its commands.
      </p>
    </section>
  );
}

interface SessionJson {
  id: string;
  label: string;
  created_at: string;
  last_used_at: string;
  expires_at: string;
  current: boolean;
}

function Account({ onSignedOut }: SectionProps) {
  const [sessions, setSessions] = useState<SessionJson[] | null>(null);
  const list = useRequest();
  const reload = () =>
    list
      .run(
        () => api<SessionJson[]>("GET", "/users/@me/sessions"),
        () => "",
      )
      .then((s) => s && setSessions(s));
  useEffect(() => void reload(), []);
  return (
    <section class="account" aria-labelledby="account-title">
      <h3 id="account-title">Account</h3>
      <ChangePassword onChanged={reload} />
      <Sessions sessions={sessions} error={list.error} onChanged={reload} onSignedOut={onSignedOut} />
    </section>
  );
}

function ChangePassword({ onChanged }: { onChanged(): void }) {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const req = useRequest();
  const currentError = fieldError(req.error, "current_password");
  const nextError = fieldError(req.error, "new_password");
  async function submit(e: Event) {
    e.preventDefault();
    const done = await req.run(
      () => api("POST", "/users/@me/password", { current_password: current, new_password: next }),
      () => "Password changed. Your other sessions have been signed out.",
    );
    if (!done) return;
    setCurrent("");
    setNext("");
    onChanged();
  }
  return (
    <form class="card" onSubmit={submit} noValidate aria-labelledby="password-title">
      <h4 id="password-title">Change password</h4>
      <Field
        id="current-password"
        label="Current password"
        type="password"
        autoComplete="current-password"
        value={current}
        onInput={setCurrent}
        error={currentError}
      />
      <Field
        id="new-password"
        label="New password"
        type="password"
        autoComplete="new-password"
        value={next}
        onInput={setNext}
        error={nextError}
      />
      <button type="submit" class="primary" disabled={req.busy}>
        Change password
      </button>
      <ErrorLine error={req.error && !currentError && !nextError ? errorText(req.error) : undefined} />
      <p role="status" class="hint">
        {req.status}
      </p>
    </form>
  );
}

function Sessions({
  sessions,
  error,
  onChanged,
  onSignedOut,
}: {
  sessions: SessionJson[] | null;
  error: unknown;
  onChanged(): void;
  onSignedOut(): void;
}) {
  const req = useRequest();
  // Every session ends, this one too: asked once first, as the pages' deletes are.
  const [asking, setAsking] = useState(false);
  async function revoke(s: SessionJson) {
    const done = await req.run(
      () => api("DELETE", `/users/@me/sessions/${s.id}`),
      () => `${s.label} was signed out.`,
    );
    if (done && s.current) onSignedOut();
    else if (done) onChanged();
  }
  async function everywhere() {
    if (
      await req.run(
        () => api("DELETE", "/users/@me/sessions"),
        () => "Signed out everywhere.",
      )
    )
      onSignedOut();
  }
  return (
    <section class="card" aria-labelledby="sessions-title">
      <h4 id="sessions-title">Sessions</h4>
      <ErrorLine error={error ? errorText(error) : undefined} />
      <ul class="sessions" aria-labelledby="sessions-title">
        {(sessions ?? []).map((s) => {
          const used = new Date(s.last_used_at).toLocaleString();
          // Two browsers of one kind share a label: the button's name tells them apart as the row does.
          const name = `Revoke ${s.label}${s.current ? " (this session)" : ""}, last used ${used}`;
          return (
            <li key={s.id}>
              <span class="session-label">{s.label}</span>
              {s.current && <strong class="this-session">This session</strong>}
              <span class="hint">Last used {used}</span>
              <button type="button" aria-label={name} disabled={req.busy} onClick={() => revoke(s)}>
                Revoke
              </button>
            </li>
          );
        })}
      </ul>
      <button type="button" class="danger" disabled={req.busy} onClick={() => setAsking(true)}>
        Sign out everywhere
      </button>
      {asking && (
        <Confirm
          title="Sign out everywhere?"
          confirm="Sign out everywhere"
          busy={req.busy}
          error={req.error ? errorText(req.error) : undefined}
          onConfirm={everywhere}
          onCancel={() => setAsking(false)}
        >
          <p>Every browser and app signed in as you is signed out, this one included. You sign in again with your password.</p>
        </Confirm>
      )}
      <ErrorLine error={req.error && !asking ? errorText(req.error) : undefined} />
      <p role="status" class="hint">
        {req.status}
      </p>
    </section>
  );
}
