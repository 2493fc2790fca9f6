/**
 * An invite link (/invite/<code>): the server it leads to (its icon, name, members), and
 * "Accept invite"; to someone already in that server, that they are, and "Open <server>".
 */
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { api, ApiError } from "../api";
import type { Guild } from "../types";
import type { Invite as InviteInfo } from "../../contract";
import { ErrorLine, errorText } from "./ui";
import { focusLost, useFocusThrough } from "./focus";

const gone = (e: unknown) => e instanceof ApiError && e.status === 404;
const refusal = (e: unknown) => (gone(e) ? "This invite is invalid or has expired." : errorText(e));

export function Invite({ code }: { code: string }) {
  const [info, setInfo] = useState<InviteInfo | null>(null);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  useFocusThrough(busy);
  const heading = useRef<HTMLHeadingElement>(null);
  // Signed in here, the form that had focus is gone: start on the heading, not the body.
  useLayoutEffect(() => {
    if (focusLost()) heading.current?.focus();
  }, []);
  // The servers one is in: accepting an invite to one of them would only open it.
  // Until known, neither offer shows, so a member never sees "Accept invite" flash by.
  const [mine, setMine] = useState<string[] | null>(null);
  useEffect(() => {
    api<InviteInfo>("GET", `/invites/${encodeURIComponent(code)}`).then(setInfo, (e) => setError(refusal(e)));
    api<Guild[]>("GET", "/guilds").then(
      (gs) => setMine(gs.map((g) => g.id)),
      () => setMine([]),
    );
  }, [code]);
  const guild = mine ? info?.guild : undefined;
  const member = !!guild && !!mine?.includes(guild.id);
  async function join() {
    setBusy(true);
    try {
      const g = await api<Guild>("POST", `/invites/${encodeURIComponent(code)}`);
      location.assign(`/channels/${g.id}`);
    } catch (e) {
      // Used up, expired or revoked since the page showed it: no server to accept any more.
      if (gone(e)) {
        setInfo(null);
        heading.current?.focus();
      }
      setError(refusal(e));
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
      <h1 ref={heading} tabIndex={-1}>
        {!guild ? "Invite" : member ? `You are already a member of ${guild.name}` : `You are invited to ${guild.name}`}
      </h1>
      {info?.guild && (
        <p class="muted">
          {info.guild.member_count === 1 ? "1 member" : `${info.guild.member_count} members`}
          {info.channel ? ` · #${info.channel.name}` : ""}
        </p>
      )}
      <ErrorLine error={error} />
      {guild && member && (
        <button type="button" class="primary" onClick={() => location.assign(`/channels/${guild.id}`)}>
          Open {guild.name}
        </button>
      )}
      {guild && !member && (
        <button type="button" class="primary" disabled={busy} onClick={join}>
          Accept invite
        </button>
      )}
    </div>
  );
}
