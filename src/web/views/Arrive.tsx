/**
 * A signed-out visitor opening an invite link: which server it leads to (its icon, name
 * and member count, readable without a session), above the sign-in form, which also creates
 * an account. Once signed in, the invite page itself offers "Accept invite".
 */
import { useEffect, useState } from "preact/hooks";
import { api, ApiError } from "../api";
import type { Me } from "../types";
import type { Invite } from "../../contract";
import { SignIn } from "./SignIn";

export function InviteArrival({ code, onSignedIn }: { code: string; onSignedIn(token: string, user: Me): void }) {
  const [info, setInfo] = useState<Invite | null>(null);
  const [gone, setGone] = useState<string>();
  useEffect(() => {
    api<Invite>("GET", `/invites/${encodeURIComponent(code)}`).then(setInfo, (e) =>
      setGone(e instanceof ApiError && e.status === 404 ? "This invite is invalid or has expired." : "The server could not be reached."),
    );
  }, [code]);
  const header = (
    <section class="arrive card" aria-labelledby="arrive-title">
      {info?.guild?.icon && (
        <img
          class="server-icon"
          src={`/icons/${info.guild.id}/${info.guild.icon}.png?size=96`}
          alt={info.guild.name}
          width={64}
          height={64}
        />
      )}
      <h1 id="arrive-title">{info?.guild ? `You are invited to ${info.guild.name}` : "Invite"}</h1>
      {info?.guild && <p class="muted">{info.guild.member_count === 1 ? "1 member" : `${info.guild.member_count} members`}</p>}
      {gone ? (
        <p class="error" role="alert">
          {gone}
        </p>
      ) : (
        <p>Sign in, or create an account, to accept the invite.</p>
      )}
    </section>
  );
  return <SignIn onSignedIn={onSignedIn} header={header} />;
}
