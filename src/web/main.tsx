/**
 * Parley's web pages, one build: sign in, then the chat (/, /channels/...), the developer
 * portal (/developers: applications, install pages), administration (/admin) or an
 * invite (/invite/<code>). They speak only the people's API (/api/client/v1) and, in the
 * chat, its live connection; ids are internal, never snowflakes.
 */
import { render } from "preact";
import { useEffect } from "preact/hooks";
import { signal } from "@preact/signals";
import { api, storedToken, storeToken } from "./api";
import { LiveClient } from "./live";
import { open, routeOf } from "./load";
import { page, pageOf } from "./router";
import { loaded, me, notice, route } from "./state";
import type { Me } from "./types";
import { SignIn } from "./views/SignIn";
import { Chat } from "./views/Chat";
import { watchDevice } from "./device";
import { forgetDms } from "./dm-crypto";
import { Frame } from "./views/Frame";
import { Administration } from "./views/admin/Administration";
import { Invite } from "./views/Invite";
import { InviteArrival } from "./views/Arrive";
import { ResetPassword } from "./views/ResetPassword";
import { Setup } from "./views/Setup";
import { SignOutDialog, signOutAsked } from "./views/SignOut";
import { Applications } from "./portal/Applications";
import { AppPage } from "./portal/AppPage";
import { Install } from "./portal/Install";

const signedIn = signal(storedToken() !== null);
// A session ended elsewhere (signed out everywhere, revoked, a new password) signs this
// browser out too: the sign-in form, with why, rather than a chat that can do nothing.
const live = new LiveClient(() => forgetSession());
// Each signed-in person gets this browser's device keys for end-to-end encrypted DMs.
watchDevice();

function onSignedIn(token: string, user: Me) {
  notice.value = null;
  storeToken(token);
  me.value = user;
  signedIn.value = true;
}

/** What this browser holds of a session: gone (signed out here, or ended elsewhere). */
function forgetSession() {
  storeToken(null);
  me.value = null;
  forgetDms();
  loaded.value = false;
  signedIn.value = false;
}

async function signOut(removeDevice = false) {
  live.stop();
  await api("POST", "/auth/signout", removeDevice ? { remove_device: true } : undefined).catch(() => undefined);
  forgetSession();
  notice.value = null;
  history.replaceState(null, "", "/");
  page.value = pageOf("/");
}

/** A session that ended elsewhere: sign in again on the same page. */
const expired = forgetSession;

function App() {
  const current = page.value;
  const chat = current.kind === "chat";
  useEffect(() => {
    route.value = routeOf(location.pathname);
    const onPop = () => {
      const next = pageOf(location.pathname);
      page.value = next;
      if (next.kind === "chat") void open(routeOf(location.pathname), false);
    };
    addEventListener("popstate", onPop);
    return () => removeEventListener("popstate", onPop);
  }, []);
  useEffect(() => {
    // Only the chat keeps a live connection; the other pages read what they show over HTTP.
    if (!signedIn.value || !chat) return;
    live.start();
    return () => live.stop();
  }, [signedIn.value, chat]);

  // A reset link signs in with its new password, whoever was signed in here before.
  if (current.kind === "reset")
    return (
      <ResetPassword
        token={current.token}
        onSignedIn={(token, user) => {
          onSignedIn(token, user);
          page.value = pageOf("/");
        }}
      />
    );
  // The setup link works signed in (that person becomes the administrator) or not (a new account does).
  if (current.kind === "setup")
    return (
      <Setup
        token={current.token}
        signedIn={signedIn.value}
        onSignedIn={onSignedIn}
        onDone={(user) => {
          me.value = user;
          history.replaceState(null, "", "/admin");
          page.value = pageOf("/admin");
        }}
      />
    );
  // Any page asks to sign in first and shows itself after, at the same address.
  if (!signedIn.value)
    return current.kind === "invite" ? <InviteArrival code={current.code} onSignedIn={onSignedIn} /> : <SignIn onSignedIn={onSignedIn} />;
  const asking = signOutAsked.value && <SignOutDialog onSignOut={signOut} />;
  const ask = () => (signOutAsked.value = true);
  if (current.kind === "chat")
    return (
      <>
        <Chat onSignOut={() => signOut()} onAskSignOut={ask} />
        {asking}
      </>
    );
  const portal = current.kind === "portal" || current.kind === "install" ? current.base || "/developers" : "/developers";
  return (
    <Frame portal={portal} onSignOut={ask} onExpired={expired}>
      {asking}
      {current.kind === "admin" && <Administration />}
      {current.kind === "invite" && <Invite code={current.code} />}
      {current.kind === "install" && <Install id={current.app} />}
      {current.kind === "portal" && (current.app ? <AppPage base={portal} id={current.app} /> : <Applications base={portal} />)}
    </Frame>
  );
}

render(<App />, document.getElementById("app")!);
