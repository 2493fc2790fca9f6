/** Sign in, or create an account: the same two fields, errors next to the field they concern. */
import { useEffect, useState } from "preact/hooks";
import { api, formErrors } from "../api";
import type { ComponentChildren } from "preact";
import type { Me } from "../types";
import { Field } from "./ui";
import { notice } from "../state";
import { useFocusThrough } from "./focus";

interface Props {
  onSignedIn(token: string, user: Me): void;
  /** What the visitor came for, above the form (an invite's server: views/Arrive.tsx). */
  header?: ComponentChildren;
}

// Longer than 80 lines because sign-in and sign-up are one form in two modes, each field with its own error.
export function SignIn({ onSignedIn, header }: Props) {
  const [mode, setMode] = useState<"signin" | "signup">("signin");
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<{ username?: string; password?: string; invite?: string; form?: string }>({});
  // Who may sign up here (GET /instance): an invite-only server asks for an instance invite.
  const [registration, setRegistration] = useState<string>("open");
  // A new server nobody administers yet: its operator has a setup link to open (views/Setup.tsx).
  const [administered, setAdministered] = useState(true);
  const [invite, setInvite] = useState("");
  useEffect(
    () =>
      void api<{ registration: string; administered: boolean }>("GET", "/instance").then(
        (r) => {
          setRegistration(r.registration);
          setAdministered(r.administered);
        },
        () => undefined,
      ),
    [],
  );
  const [busy, setBusy] = useState(false);
  useFocusThrough(busy);
  // Parley sends no email: a forgotten password is an administrator's reset link.
  const [forgot, setForgot] = useState(false);
  const signup = mode === "signup";

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      const body = signup && invite.trim() ? { username, password, invite: invite.trim() } : { username, password };
      const r = await api<{ token: string; user: Me }>("POST", signup ? "/auth/signup" : "/auth/signin", body);
      onSignedIn(r.token, r.user);
    } catch (err) {
      setErrors(formErrors(err, ["username", "password", "invite"]));
    } finally {
      setBusy(false);
    }
  }

  function switchTo(next: "signin" | "signup") {
    setMode(next);
    setErrors({});
  }

  return (
    <main class="signin">
      {header}
      <form onSubmit={submit} noValidate>
        <h1>{signup ? "Create your Parley account" : "Sign in to Parley"}</h1>
        {/* Why this browser is signed out, when its session ended elsewhere (live.ts). */}
        <p role="status" class="hint">
          {notice.value}
        </p>
        {!administered && (
          <p class="hint">
            Nobody administers this server yet. If you run it, open the setup link that <code>parley serve</code> printed to create the
            administrator's account.
          </p>
        )}
        <Field id="username" label="Username" value={username} onInput={setUsername} error={errors.username} autoComplete="username" />
        <Field
          id="password"
          label="Password"
          type="password"
          value={password}
          onInput={setPassword}
          error={errors.password}
          autoComplete={signup ? "new-password" : "current-password"}
          hint={signup ? "At least 8 characters." : undefined}
        />
        {signup && registration === "invite" && (
          <Field
            id="invite"
            label="Invite code"
            value={invite}
            onInput={setInvite}
            error={errors.invite}
            hint="This server admits new accounts by invite: ask its administrator for a code."
          />
        )}
        {signup && registration === "closed" && (
          <p class="hint">Sign-ups are closed on this server: ask its administrator for an account.</p>
        )}
        {errors.form && (
          <p class="error" role="alert">
            {errors.form}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {signup ? "Create account" : "Sign in"}
        </button>
        {signup ? (
          <button type="button" class="link" onClick={() => switchTo("signin")}>
            I already have an account
          </button>
        ) : (
          <>
            <button type="button" class="link" aria-expanded={forgot} aria-controls="forgot" onClick={() => setForgot(!forgot)}>
              Forgot your password?
            </button>
            {forgot && (
              <p id="forgot" class="hint">
                This server sends no email: ask its administrator for a password reset link. It opens a page where you choose a new
                password.
              </p>
            )}
            <button type="button" class="link" onClick={() => switchTo("signup")}>
              Create account
            </button>
          </>
        )}
      </form>
    </main>
  );
}
