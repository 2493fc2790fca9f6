/** A server's bans, each with its reason and "Unban <name>" (Ban Members). */
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { displayName } from "../state";
import type { Guild } from "../types";
import type { Ban } from "../../contract";
import { ErrorLine, errorText } from "../views/ui";
import { useRequest } from "./common";
import { focusNextRow } from "../views/focus";

export function Bans({ guild }: { guild: Guild }) {
  const [list, setList] = useState<Ban[] | null>(null);
  const [loadError, setLoadError] = useState<string>();
  const req = useRequest();
  async function load() {
    try {
      setList(await api<Ban[]>("GET", `/guilds/${guild.id}/bans`));
    } catch (e) {
      setLoadError(errorText(e));
    }
  }
  useEffect(() => void load(), [guild.id]);
  async function unban(b: Ban) {
    if (
      await req.run(
        () => api("DELETE", `/guilds/${guild.id}/bans/${b.user.id}`, {}),
        () => `${displayName(b.user)} is no longer banned.`,
      )
    )
      await load();
  }
  return (
    <section class="card" aria-labelledby="bans-title">
      <h3 id="bans-title">Bans</h3>
      <ErrorLine error={loadError ?? (req.error ? errorText(req.error) : undefined)} />
      <p role="status" class="hint">
        {req.status}
      </p>
      {list && !list.length && <p class="muted">Nobody is banned. Ban someone from Members.</p>}
      {list && list.length > 0 && (
        <ul class="rows" aria-label="Banned people">
          {list.map((b) => (
            <li key={b.user.id}>
              <span class="row-name">{displayName(b.user)}</span>
              <span class="muted">{b.reason ? `Reason: ${b.reason}` : "No reason given"}</span>
              <button
                type="button"
                disabled={req.busy}
                onClick={(e) => {
                  focusNextRow(e.currentTarget);
                  void unban(b);
                }}
              >
                Unban {displayName(b.user)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
