/**
 * The setup link `parley serve` prints while nobody administers the server
 * (/setup/<token>): the self-hoster who opens it creates the administrator's account, or,
 * signed in already, makes their own account the administrator. Once: after that the
 * link says so and sends them to sign in.
 */
import { useEffect, useState } from "preact/hooks";
import { api, formErrors } from "../api";
import type { Me } from "../types";
import { Field } from "./ui";
import { useFocusThrough } from "./focus";

interface Props {
  token: string;
  /** Whether this browser holds a session (then it offers to make that person the administrator). */
  signedIn: boolean;
  onSignedIn(token: string, user: Me): void;
  /** Where to go once someone administers the server. */
  onDone(user: Me): void;
}

type State = { kind: "checking" } | { kind: "unusable"; message: string } | { kind: "usable"; me: Me | null };

export function Setup({ token, signedIn, onSignedIn, onDone }: Props) {
  const [state, setState] = useState<State>({ kind: "checking" });
  useEffect(() => {
    let on = true;
    (async () => {
      try {
        await api("POST", "/auth/setup/check", { token });
        const me = signedIn ? await api<Me>("GET", "/users/@me").catch(() => null) : null;
        if (on) setState({ kind: "usable", me });
      } catch (err) {
        if (on) setState({ kind: "unusable", message: formErrors(err, []).form ?? "" });
      }
    })();
    return () => {
      on = false;
    };
  }, [token, signedIn]);

  if (state.kind === "checking")
    return (
      <main class="signin">
        <p role="status">Checking the setup link…</p>
      </main>
    );
  if (state.kind === "unusable")
    return (
      <main class="signin">
        <div class="form">
          <h1>This setup link does not work</h1>
          <p>{state.message}</p>
          <a href="/">{signedIn ? "Open Parley" : "Go to sign in"}</a>
        </div>
      </main>
    );
  return state.me ? (
    <MakeMine token={token} me={state.me} onDone={onDone} />
  ) : (
    <CreateAdministrator token={token} onSignedIn={onSignedIn} onDone={onDone} />
  );
}

/** Signed in already: this person becomes the administrator. */
function MakeMine({ token, me, onDone }: { token: string; me: Me; onDone(user: Me): void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useFocusThrough(busy);
  async function make() {
    setBusy(true);
    setError(null);
    try {
      onDone(await api<Me>("POST", "/users/@me/setup", { token }));
    } catch (err) {
      setError(formErrors(err, []).form ?? null);
    } finally {
      setBusy(false);
    }
  }
  return (
    <main class="signin">
      <div class="form">
        <h1>Set up this Parley server</h1>
        <p>
          Nobody administers this server yet. You are signed in as <strong>{me.username}</strong>; the administrator approves bots'
          privileged intents and decides who may sign up.
        </p>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <button type="button" class="primary" disabled={busy} onClick={make}>
          Make {me.username} the administrator
        </button>
      </div>
    </main>
  );
}

/** Nobody signed in here: a new account, which administers the server, signed in at once. */
function CreateAdministrator({
  token,
  onSignedIn,
  onDone,
}: {
  token: string;
  onSignedIn(token: string, user: Me): void;
  onDone(user: Me): void;
}) {
  const [username, setUsername] = useState("");
  const [displayName, setDisplayName] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<{ username?: string; global_name?: string; password?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  useFocusThrough(busy);
  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      const body = { token, username, password, ...(displayName.trim() ? { global_name: displayName.trim() } : {}) };
      const r = await api<{ token: string; user: Me }>("POST", "/auth/setup", body);
      onSignedIn(r.token, r.user);
      onDone(r.user);
    } catch (err) {
      setErrors(formErrors(err, ["username", "global_name", "password"]));
    } finally {
      setBusy(false);
    }
  }
  return (
    <main class="signin">
      <form onSubmit={submit} noValidate>
        <h1>Set up this Parley server</h1>
        <p>Create the account that administers it: it approves bots' privileged intents and decides who may sign up.</p>
        <Field id="username" label="Username" value={username} onInput={setUsername} error={errors.username} autoComplete="username" />
        <Field
          id="global-name"
          label="Display name (optional)"
          value={displayName}
          onInput={setDisplayName}
          error={errors.global_name}
          autoComplete="nickname"
        />
        <Field
          id="password"
          label="Password"
          type="password"
          value={password}
          onInput={setPassword}
          error={errors.password}
          autoComplete="new-password"
          hint="At least 8 characters."
        />
        {errors.form && (
          <p class="error" role="alert">
            {errors.form}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          Create administrator
        </button>
      </form>
    </main>
  );
}
