/**
 * A one-time password reset link an administrator made (/reset-password/<token>): a new
 * password, checked as sign-up checks it (the reason beside the field); using it ends
 * every other session of the person and signs this browser in.
 */
import { useState } from "preact/hooks";
import { api, formErrors } from "../api";
import type { Me } from "../types";
import { Field } from "./ui";
import { useFocusThrough } from "./focus";

export function ResetPassword({ token, onSignedIn }: { token: string; onSignedIn(token: string, user: Me): void }) {
  const [password, setPassword] = useState("");
  const [error, setError] = useState<{ field?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  useFocusThrough(busy);
  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError({});
    try {
      const r = await api<{ token: string; user: Me }>("POST", "/auth/password-reset", { token, new_password: password });
      history.replaceState(null, "", "/");
      onSignedIn(r.token, r.user);
    } catch (err) {
      const e = formErrors(err, ["new_password"]);
      setError({ field: e.new_password, form: e.form });
    } finally {
      setBusy(false);
    }
  }
  return (
    <main class="signin">
      <form onSubmit={submit} noValidate>
        <h1>Choose a new password</h1>
        <Field
          id="new-password"
          label="New password"
          type="password"
          value={password}
          onInput={setPassword}
          error={error.field}
          autoComplete="new-password"
          hint="At least 8 characters."
        />
        {error.form && (
          <p class="error" role="alert">
            {error.form}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          Set password
        </button>
      </form>
    </main>
  );
}
