/** Every server with its owner and members, and "Delete <server>" (asks once, says what goes). */
import { useEffect, useState } from "preact/hooks";
import { api } from "../../api";
import { displayName } from "../../state";
import type { ServerSummary } from "../../../contract";
import { Confirm, counted, ErrorLine, errorText } from "../ui";

export function Servers() {
  const [list, setList] = useState<ServerSummary[] | null>(null);
  const [asking, setAsking] = useState<ServerSummary | null>(null);
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);
  const load = () => api<ServerSummary[]>("GET", "/admin/guilds").then(setList, (e) => setError(errorText(e)));
  useEffect(() => void load(), []);
  async function remove(s: ServerSummary) {
    setBusy(true);
    try {
      await api("DELETE", `/admin/guilds/${s.id}`);
      setStatus(`${s.name} was deleted.`);
      setAsking(null);
      await load();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <section class="card" aria-labelledby="servers-title">
      <h2 id="servers-title">Servers</h2>
      <p role="status" class="hint">
        {status}
      </p>
      {!asking && <ErrorLine error={error} />}
      {list && !list.length && <p class="muted">No server yet.</p>}
      <ul class="rows" aria-label="Servers">
        {list?.map((s) => (
          <li key={s.id}>
            <span class="row-name">{s.name}</span>
            <span class="muted">
              owned by {s.owner ? displayName(s.owner) : "nobody"} · {counted(s.member_count, "member")} ·{" "}
              {counted(s.channel_count, "channel")}
            </span>
            <button type="button" class="danger" onClick={() => setAsking(s)}>
              Delete {s.name}
            </button>
          </li>
        ))}
      </ul>
      {asking && (
        <Confirm
          title={`Delete ${asking.name}?`}
          confirm="Delete server"
          busy={busy}
          error={error}
          onConfirm={() => remove(asking)}
          onCancel={() => setAsking(null)}
        >
          <p>{`Its ${counted(asking.channel_count, "channel")} and their messages, its roles and invites go for good; its ${counted(asking.member_count, "member")} lose it.`}</p>
        </Confirm>
      )}
    </section>
  );
}
