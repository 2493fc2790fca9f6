/**
 * People, for administrators: "Search users"; per person "Disable <name>" (with "Also
 * disable their applications (N)": without it their bots keep running), "Delete <name>"
 * (their messages stay as Deleted User), "Reset password for <name>" (a one-time link
 * shown once) and "Make <name> an administrator".
 */
import { useEffect, useState } from "preact/hooks";
import { api } from "../../api";
import { displayName } from "../../state";
import type { Account, ResetLink } from "../../../contract";
import { Confirm, CopyField, ErrorLine, errorText } from "../ui";
import { useFocusThrough } from "../focus";

type Asking = { kind: "disable" | "delete"; account: Account };

/** Longer than 80 lines because each person's four acts and their two confirmations read best in one place. */
export function Users() {
  const [q, setQ] = useState("");
  const [list, setList] = useState<Account[] | null>(null);
  const [asking, setAsking] = useState<Asking | null>(null);
  const [withApps, setWithApps] = useState(false);
  const [link, setLink] = useState<{ name: string; url: string } | null>(null);
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);
  useFocusThrough(busy);
  const load = () => api<Account[]>("GET", `/admin/users?q=${encodeURIComponent(q.trim())}`).then(setList, (e) => setError(errorText(e)));
  useEffect(() => void load(), [q]);
  async function act(what: () => Promise<unknown>, done: string) {
    setBusy(true);
    setError(undefined);
    try {
      await what();
      setStatus(done);
      setAsking(null);
      await load();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }
  const name = (a: Account) => displayName(a.user);
  async function reset(a: Account) {
    await act(
      async () => setLink({ name: name(a), url: (await api<ResetLink>("POST", `/admin/users/${a.user.id}/password-reset`)).url }),
      `A reset link for ${name(a)} is below.`,
    );
  }
  return (
    <section class="card" aria-labelledby="users-title">
      <h2 id="users-title">Users</h2>
      <input type="search" aria-label="Search users" value={q} onInput={(e) => setQ(e.currentTarget.value)} />
      <p role="status" class="hint">
        {status}
      </p>
      {!asking && <ErrorLine error={error} />}
      {link && (
        <CopyField
          id="reset-link"
          label={`Reset link for ${link.name}`}
          value={link.url}
          hint="It works once, for 24 hours. Send it to them privately."
        />
      )}
      <ul class="rows" aria-label="People">
        {list?.map((a) => (
          <li key={a.user.id}>
            <span class="row-name">
              {name(a)} <span class="muted">@{a.user.username}</span> {a.user.admin && <span class="tag">ADMIN</span>}{" "}
              {a.disabled && <span class="tag">DISABLED</span>}
            </span>
            {a.disabled ? (
              <button
                type="button"
                disabled={busy}
                onClick={() =>
                  act(
                    () => api("POST", `/admin/users/${a.user.id}/disable`, { disabled: false, applications: true }),
                    `${name(a)} may sign in again.`,
                  )
                }
              >
                Enable {name(a)}
              </button>
            ) : (
              <button type="button" onClick={() => (setWithApps(false), setAsking({ kind: "disable", account: a }))}>
                Disable {name(a)}
              </button>
            )}
            <button type="button" disabled={busy} onClick={() => reset(a)}>
              Reset password for {name(a)}
            </button>
            <button
              type="button"
              disabled={busy}
              onClick={() =>
                act(
                  () => api("PUT", `/admin/users/${a.user.id}/admin`, { admin: !a.user.admin }),
                  a.user.admin ? `${name(a)} is no longer an administrator.` : `${name(a)} is an administrator.`,
                )
              }
            >
              {a.user.admin ? `Remove ${name(a)} as administrator` : `Make ${name(a)} an administrator`}
            </button>
            <button type="button" class="danger" onClick={() => setAsking({ kind: "delete", account: a })}>
              Delete {name(a)}
            </button>
          </li>
        ))}
      </ul>
      {list && !list.length && <p class="muted">Nobody matches.</p>}
      {asking?.kind === "disable" && (
        <Confirm
          title={`Disable ${name(asking.account)}?`}
          confirm="Disable"
          busy={busy}
          error={error}
          onCancel={() => setAsking(null)}
          onConfirm={() =>
            act(
              () => api("POST", `/admin/users/${asking.account.user.id}/disable`, { disabled: true, applications: withApps }),
              `${name(asking.account)} is disabled.`,
            )
          }
        >
          <p>They are signed out everywhere and cannot sign in. Their bots keep running unless you disable their applications too.</p>
          <label class="check">
            <input type="checkbox" checked={withApps} onChange={(e) => setWithApps(e.currentTarget.checked)} />
            Also disable their applications ({asking.account.applications.length})
          </label>
        </Confirm>
      )}
      {asking?.kind === "delete" && (
        <Confirm
          title={`Delete ${name(asking.account)}?`}
          confirm="Delete"
          busy={busy}
          error={error}
          onCancel={() => setAsking(null)}
          onConfirm={() => act(() => api("DELETE", `/admin/users/${asking.account.user.id}`), `${name(asking.account)} was deleted.`)}
        >
          <p>Their messages stay, shown as from Deleted User; they leave every server. Servers they own must be given away first.</p>
        </Confirm>
      )}
    </section>
  );
}
