/**
 * An application's gateway intents: a checkbox named by each intent; the privileged
 * three say "Requires approval" and where their request stands. "Save intents" keeps the
 * checked set; "Request approval" asks an administrator for the checked privileged ones
 * (again, after a denial). Changes apply to the next token; what a reset would add, and
 * what no token can carry before an approval, is said above the boxes.
 */
import { useState } from "preact/hooks";
import { api } from "../api";
import { useOnChange } from "../hooks";
import { INTENTS, PRIVILEGED } from "../names";
import { ErrorLine, errorText } from "../views/ui";
import { requestState, STATE_WORDS, type Application } from "./types";
import { useFocusThrough } from "../views/focus";

export function Intents({ app, onChanged }: { app: Application; onChanged(a: Application): void }) {
  const [checked, setChecked] = useState<Set<string>>(new Set(app.intents));
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);
  useFocusThrough(busy);
  useOnChange(app.intents.join(), () => setChecked(new Set(app.intents)));
  const changed = checked.size !== app.intents.length || app.intents.some((i) => !checked.has(i));
  // What "Request approval" would ask for: checked privileged intents not approved or waiting.
  const toAsk = [...checked].filter((i) => PRIVILEGED.has(i) && !["approved", "pending"].includes(requestState(app, i)));

  async function run(what: () => Promise<Application>, done: string | ((a: Application) => string)) {
    setBusy(true);
    setError(undefined);
    setStatus("");
    try {
      const next = await what();
      onChanged(next);
      setStatus(typeof done === "string" ? done : done(next));
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }
  const list = () => INTENTS.filter((i) => checked.has(i));
  const save = () =>
    run(
      () => api<Application>("PUT", `/applications/${app.id}/intents`, { intents: list() }),
      (saved) => {
        // Saving asks for a privileged intent, but no token carries it before an approval.
        const waiting = saved.intents.filter((i) => PRIVILEGED.has(i) && requestState(saved, i) !== "approved");
        return waiting.length
          ? `Intents saved. ${waiting.join(", ")} ${waiting.length === 1 ? "waits" : "wait"} for an administrator's approval; reset the token to use the others.`
          : "Intents saved. Reset the token to use them.";
      },
    );
  const ask = () =>
    run(async () => {
      if (changed) await api("PUT", `/applications/${app.id}/intents`, { intents: list() });
      return api<Application>("POST", `/applications/${app.id}/privileged-requests`, { intents: toAsk });
    }, "Approval requested. An administrator will look at it.");

  function toggle(intent: string, on: boolean) {
    const next = new Set(checked);
    if (on) next.add(intent);
    else next.delete(intent);
    setChecked(next);
  }
  return (
    <section class="card" aria-labelledby="intents-title">
      <h2 id="intents-title">Gateway intents</h2>
      <p id="intents-note" class="note">
        Intent changes apply to the next token: after saving them (and after an approval), reset the token. The current token carries{" "}
        {app.token_intents.length ? app.token_intents.join(", ") : "no intent"}.
      </p>
      <Standing app={app} />
      <IntentBoxes app={app} checked={checked} onToggle={toggle} />
      <ErrorLine error={error} />
      <div class="buttons">
        <button type="button" disabled={busy || !changed} onClick={save}>
          Save intents
        </button>
        <button type="button" disabled={busy || !toAsk.length} onClick={ask} aria-describedby="ask-hint">
          Request approval
        </button>
        <span role="status" class="hint">
          {status}
        </span>
      </div>
      <small id="ask-hint" class="hint">
        GUILD_MEMBERS, GUILD_PRESENCES and MESSAGE_CONTENT are privileged: check them, then request approval.
      </small>
    </section>
  );
}

function IntentBoxes({ app, checked, onToggle }: { app: Application; checked: Set<string>; onToggle(intent: string, on: boolean): void }) {
  return (
    <fieldset aria-describedby="intents-note">
      <legend>Intents</legend>
      <ul class="intents">
        {INTENTS.map((i) => (
          <li key={i}>
            <input
              type="checkbox"
              id={`intent-${i}`}
              checked={checked.has(i)}
              aria-describedby={PRIVILEGED.has(i) ? `intent-${i}-state` : undefined}
              onChange={(e) => onToggle(i, e.currentTarget.checked)}
            />
            <label for={`intent-${i}`}>{i}</label>
            {PRIVILEGED.has(i) && (
              <span id={`intent-${i}-state`} class="privileged">
                <span class="tag">Requires approval</span>{" "}
                <span class={`state ${requestState(app, i)}`}>{STATE_WORDS[requestState(app, i)]}</span>
              </span>
            )}
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/**
 * Where the saved intents stand against the current token: what a reset would add, and
 * which privileged ones no token can carry yet. A bot asking at IDENTIFY for an intent its
 * token lacks is closed with 4014 ("Used disallowed intents" in discord.js), which the
 * developer would otherwise meet with no hint of why.
 */
function Standing({ app }: { app: Application }) {
  const waiting = app.intents.filter((i) => PRIVILEGED.has(i) && requestState(app, i) !== "approved");
  const missing = app.granted_intents.filter((i) => !app.token_intents.includes(i));
  if (!waiting.length && !missing.length) return null;
  return (
    <div class="note" id="intents-standing">
      {missing.length > 0 && (
        <p>
          Not in the current token yet: {missing.join(", ")}. Reset the token (below) to use {missing.length === 1 ? "it" : "them"}.
        </p>
      )}
      {waiting.length > 0 && (
        <p>
          {waiting.join(", ")} {waiting.length === 1 ? "is" : "are"} not approved: no token carries {waiting.length === 1 ? "it" : "them"}{" "}
          yet. A bot that asks for {waiting.length === 1 ? "it" : "them"} when it connects is refused with close code 4014 (discord.js:
          "Used disallowed intents"); leave {waiting.length === 1 ? "it" : "them"} out of the bot's intents until an administrator approves.
        </p>
      )}
    </div>
  );
}
