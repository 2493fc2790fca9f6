/** An invite link (/invite/<code>): the server it leads to (its icon, name, members), and "Accept invite". */
import { useEffect, useState } from "preact/hooks";
import { api, ApiError } from "../api";
import type { Guild } from "../types";
import type { Invite as InviteInfo } from "../../contract";
import { ErrorLine, errorText } from "./ui";

export function Invite({ code }: { code: string }) {
  const [info, setInfo] = useState<InviteInfo | null>(null);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api<InviteInfo>("GET", `/invites/${encodeURIComponent(code)}`).then(setInfo, (e) =>
      setError(e instanceof ApiError && e.status === 404 ? "This invite is invalid or has expired." : errorText(e)),
    );
  }, [code]);
  async function join() {
    setBusy(true);
    try {
      const g = await api<Guild>("POST", `/invites/${encodeURIComponent(code)}`);
      location.assign(`/channels/${g.id}`);
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  }
  return (
    <div class="portal invite card">
      {info?.guild?.icon && (
        <img
          class="server-icon"
          src={`/icons/${info.guild.id}/${info.guild.icon}.png?size=96`}
          alt={info.guild.name}
          width={64}
          height={64}
        />
      )}
      <h1>{info?.guild ? `You are invited to ${info.guild.name}` : "Invite"}</h1>
      {info?.guild && (
        <p class="muted">
          {info.guild.member_count === 1 ? "1 member" : `${info.guild.member_count} members`}
          {info.channel ? ` · #${info.channel.name}` : ""}
        </p>
      )}
      <ErrorLine error={error} />
      {info?.guild && (
        <button type="button" class="primary" disabled={busy} onClick={join}>
          Accept invite
        </button>
      )}
    </div>
  );
}
