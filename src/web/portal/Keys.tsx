/**
 * An application's keys and links: its Application ID (what a bot program registers
 * commands under: a deploy script's `clientId`, a library's `applicationId`; here it is
 * not the bot user's id, which the token starts with, though the bot API takes that one
 * in its place), the public key, and the install
 * link with the page it opens.
 */
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { CopyField, ErrorLine, errorText } from "../views/ui";
import type { Application } from "./types";

export function Keys({ app }: { app: Application }) {
  const [ids, setIds] = useState<{ application_id: string; bot_user_id: string } | null>(null);
  const [error, setError] = useState<string>();
  useEffect(() => {
    api<{ application_id: string; bot_user_id: string }>("GET", `/applications/${app.id}/bot-ids`).then(setIds, (e) =>
      setError(errorText(e)),
    );
  }, [app.id]);
  return (
    <section class="card" aria-labelledby="keys-title">
      <h2 id="keys-title">Keys and links</h2>
      {ids && (
        <CopyField
          id="application-id"
          label="Application ID"
          value={ids.application_id}
          copyLabel="Copy application ID"
          hint={`What a bot registers its slash commands under, e.g. Routes.applicationCommands(<Application ID>), and a library's applicationId or clientId. On the reference the bot user has the same id; here it has its own (${ids.bot_user_id}), which the command and interaction routes also take in its place.`}
        />
      )}
      <ErrorLine error={error} />
      <CopyField id="public-key" label="Public key" value={app.public_key} copyLabel="Copy public key" />
      <CopyField
        id="install-link"
        label="Install link"
        value={app.install_url}
        copyLabel="Copy install link"
        hint="Anyone who manages a server can add the bot through this page."
      />
      <p>
        <a href={app.install_url}>Open the install page</a>
      </p>
    </section>
  );
}
