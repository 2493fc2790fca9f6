/**
 * The server as a whole: "Leave server" for members (its owner gives it away first), and
 * for the owner "Transfer ownership" and "Delete server", each asking once and saying
 * what goes with it. A server left or deleted leaves the rail when the live connection
 * says so (guild.deleted).
 */
import { useState } from "preact/hooks";
import { api } from "../api";
import { displayName, guilds, me, members, showNotice } from "../state";
import { open } from "../load";
import type { Guild } from "../types";
import type { GuildDeletion } from "../../contract";
import { Confirm, counted, ErrorLine, errorText } from "../views/ui";
import { Choice } from "./Invites";
import { settingsFor } from "./common";

/**
 * Forget a server here at once (the live connection's guild.deleted says the same) and go
 * where a reload would land, in the page: a reload lost the notice that says what happened
 * and the keyboard's place, and landed on Direct messages though other servers were there.
 */
function forget(guildId: string, said: string): void {
  settingsFor.value = null;
  guilds.value = guilds.value.filter((g) => g.id !== guildId);
  showNotice(said);
  void open({ guild: guildId, channel: null }, false);
}

export function LeaveServer({ guild }: { guild: Guild }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  if (guild.owner_id === me.value?.id) return null;
  async function leave() {
    setBusy(true);
    try {
      await api("DELETE", `/users/@me/guilds/${guild.id}`);
      forget(guild.id, `You left ${guild.name}.`);
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  }
  return (
    <>
      <button type="button" class="leave-server" onClick={() => setAsking(true)}>
        Leave server
      </button>
      {asking && (
        <Confirm
          title={`Leave ${guild.name}?`}
          confirm="Leave server"
          busy={busy}
          error={error}
          onConfirm={leave}
          onCancel={() => setAsking(false)}
        >
          <p>You can come back only with a new invite.</p>
        </Confirm>
      )}
    </>
  );
}

// Longer than 80 lines because giving the server away and deleting it, each with its confirmation, share the owner's state.
export function OwnerActions({ guild }: { guild: Guild }) {
  const others = (members.value[guild.id] ?? []).filter((m) => m.user.id !== me.value?.id && !m.user.bot);
  const [to, setTo] = useState("");
  const [asking, setAsking] = useState<"transfer" | "delete" | null>(null);
  const [deletion, setDeletion] = useState<GuildDeletion | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState("");
  // The server given away: the card stays to say who owns it now (the news of the change
  // may arrive before the answer to the request, taking the controls away first).
  if (guild.owner_id !== me.value?.id)
    return status ? (
      <section class="card" aria-labelledby="owner-title">
        <h3 id="owner-title">Ownership</h3>
        <p role="status" class="hint">
          {status}
        </p>
      </section>
    ) : null;
  const target = others.find((m) => m.user.id === (to || others[0]?.user.id));
  async function askDelete() {
    setError(undefined);
    try {
      setDeletion(await api<GuildDeletion>("GET", `/guilds/${guild.id}/deletion`));
      setAsking("delete");
    } catch (e) {
      setError(errorText(e));
    }
  }
  async function confirm() {
    setBusy(true);
    setError(undefined);
    try {
      if (asking === "delete") {
        await api("DELETE", `/guilds/${guild.id}`);
        forget(guild.id, `${guild.name} was deleted.`);
        return;
      }
      const g = await api<Guild>("PUT", `/guilds/${guild.id}/owner`, { owner_id: target!.user.id });
      guilds.value = guilds.value.map((x) => (x.id === g.id ? { ...x, ...g } : x));
      setStatus(`${displayName(target!.user)} now owns ${guild.name}.`);
      setAsking(null);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <section class="card danger-zone" aria-labelledby="owner-title">
      <h3 id="owner-title">Ownership</h3>
      <p role="status" class="hint">
        {status}
      </p>
      {others.length > 0 ? (
        <div class="inline-form">
          <Choice
            id="new-owner"
            label="New owner"
            value={target?.user.id ?? ""}
            onChange={setTo}
            options={others.map((m) => [displayName(m.user), m.user.id])}
          />
          <button type="button" onClick={() => setAsking("transfer")}>
            Transfer ownership
          </button>
        </div>
      ) : (
        <p class="muted">Invite someone to give the server to them.</p>
      )}
      <button type="button" class="danger" onClick={askDelete}>
        Delete server
      </button>
      {!asking && <ErrorLine error={error} />}
      {asking === "transfer" && target && (
        <Confirm
          title={`Give ${guild.name} to ${displayName(target.user)}?`}
          confirm="Transfer ownership"
          busy={busy}
          error={error}
          onConfirm={confirm}
          onCancel={() => setAsking(null)}
        >
          <p>They will own the server and rank above everyone; you stay a member with your roles.</p>
        </Confirm>
      )}
      {asking === "delete" && deletion && (
        <Confirm
          title={`Delete ${guild.name}?`}
          confirm="Delete server"
          busy={busy}
          error={error}
          onConfirm={confirm}
          onCancel={() => setAsking(null)}
        >
          <p>
            {`Its ${counted(deletion.channels, "channel")}${deletion.categories ? ` in ${counted(deletion.categories, "category", "categories")}` : ""} and ${counted(deletion.messages, "message")}, its ${counted(deletion.roles, "role")} and its invites go for good; its ${counted(deletion.members, "member")} lose it.`}
          </p>
        </Confirm>
      )}
    </section>
  );
}
