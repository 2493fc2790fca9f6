/**
 * User settings' Notifications section: the browser's permission ("Enable desktop
 * notifications", or what it already is), and for each server one is in, its level
 * ("All messages", "Only @mentions", "Nothing", or the server's default) and "Mute
 * <server> for". The same settings as the chat's "Notification settings" dialog
 * (docs/people-api.md, /users/@me/notification-settings), read afresh on opening.
 */
import { useEffect } from "preact/hooks";
import { desktopPermission, loadNotifySettings } from "../notify";
import { guilds } from "../state";
import { EnableDesktop, Levels, MuteSelect, serverDefault } from "../views/NotificationSettings";

const PERMISSION_TEXT: Record<string, string> = {
  granted: "Desktop notifications are on in this browser.",
  denied: "This browser blocks notifications from Parley: allow them in its site settings.",
  unsupported: "This browser cannot show desktop notifications.",
};

export function Notifications() {
  useEffect(() => void loadNotifySettings(), []);
  const permission = desktopPermission.value;
  return (
    <section class="notifications" aria-labelledby="notifications-title">
      <h3 id="notifications-title">Notifications</h3>
      <div class="card">
        <h4>Desktop notifications</h4>
        {permission === "default" ? <EnableDesktop class="primary" /> : <p>{PERMISSION_TEXT[permission]}</p>}
      </div>
      {guilds.value.length === 0 && <p class="hint">Join a server to choose how it notifies you.</p>}
      {guilds.value.map((g) => (
        <div key={g.id} class="card">
          <Levels scopeId={g.id} legend={g.name} inherit={serverDefault(g)} />
          <MuteSelect scopeId={g.id} label={g.name} />
        </div>
      ))}
    </section>
  );
}
