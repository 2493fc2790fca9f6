/**
 * Administration's "Privileged intents" section (/admin#intents): requests waiting for an administrator, each
 * with "Approve" and "Deny", and the approved ones with "Revoke" (spec 5.8). One row per
 * application and intent, named by both.
 */
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { displayName, me } from "../state";
import type { Application } from "../portal/types";
import { ErrorLine, errorText } from "./ui";
import { focusNextRow } from "./focus";

interface Row {
  app: Application;
  intent: string;
}

const rowsOf = (apps: Application[], pick: (a: Application) => string[]): Row[] =>
  apps.flatMap((app) => pick(app).map((intent) => ({ app, intent })));

export function Admin() {
  const [pending, setPending] = useState<Row[] | null>(null);
  const [granted, setGranted] = useState<Row[] | null>(null);
  const [error, setError] = useState<string>();
  const [rowErrors, setRowErrors] = useState<Record<string, string | undefined>>({});
  const [status, setStatus] = useState("");
  async function load() {
    try {
      const [p, g] = await Promise.all([
        api<Application[]>("GET", "/admin/privileged-requests"),
        api<Application[]>("GET", "/admin/privileged-grants"),
      ]);
      setPending(rowsOf(p, (a) => a.privileged_requested.filter((i) => !a.privileged_approved.includes(i))));
      setGranted(rowsOf(g, (a) => a.privileged_approved));
    } catch (e) {
      setError(errorText(e));
    }
  }
  useEffect(() => {
    document.title = "Administration · Parley";
    if (me.value?.admin) void load();
  }, [me.value?.admin]);

  async function decide(r: Row, how: "approve" | "deny" | "revoke", control: HTMLElement) {
    // The decision takes the row off its list: focus goes on to the next row, not the body.
    focusNextRow(control);
    const key = `${r.app.id}:${r.intent}`;
    setRowErrors({ ...rowErrors, [key]: undefined });
    setStatus("");
    try {
      const body = how === "approve" ? { intents: [r.intent] } : { intents: [r.intent], [how]: true };
      await api("POST", `/admin/applications/${r.app.id}/privileged`, body);
      setStatus(`${r.app.name}: ${r.intent} ${how === "approve" ? "approved" : how === "deny" ? "denied" : "revoked"}.`);
      await load();
    } catch (e) {
      setRowErrors({ ...rowErrors, [key]: errorText(e) });
    }
  }
  // The page around it (admin/Administration.tsx) says who may see it.
  return (
    <div class="intents">
      <ErrorLine error={error} />
      <p role="status" class="hint">
        {status}
      </p>
      <section class="card" aria-labelledby="pending-title">
        <h2 id="pending-title">Privileged intents waiting for approval</h2>
        <Rows rows={pending} empty="No request is waiting." errors={rowErrors} label="Pending requests">
          {(r) => (
            <>
              <button type="button" class="primary" onClick={(e) => decide(r, "approve", e.currentTarget)}>
                Approve
              </button>
              <button type="button" onClick={(e) => decide(r, "deny", e.currentTarget)}>
                Deny
              </button>
            </>
          )}
        </Rows>
      </section>
      <section class="card" aria-labelledby="approved-title">
        <h2 id="approved-title">Approved privileged intents</h2>
        <Rows rows={granted} empty="No application holds a privileged intent." errors={rowErrors} label="Approved">
          {(r) => (
            <button type="button" onClick={(e) => decide(r, "revoke", e.currentTarget)}>
              Revoke
            </button>
          )}
        </Rows>
      </section>
    </div>
  );
}

interface RowsProps {
  rows: Row[] | null;
  empty: string;
  label: string;
  errors: Record<string, string | undefined>;
  children(r: Row): ComponentChildren;
}

function Rows({ rows, empty, label, errors, children }: RowsProps) {
  if (!rows) return <p class="muted">Loading…</p>;
  if (!rows.length) return <p class="muted">{empty}</p>;
  return (
    <ul class="rows" aria-label={label}>
      {rows.map((r) => (
        <li key={`${r.app.id}:${r.intent}`}>
          <span class="row-name">
            <b>{r.app.name}</b> <span class="muted">by {displayName(r.app.owner)}</span> · <code>{r.intent}</code>
          </span>
          {children(r)}
          <ErrorLine error={errors[`${r.app.id}:${r.intent}`]} />
        </li>
      ))}
    </ul>
  );
}
