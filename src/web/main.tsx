/**
 * Parley's web client: sign in, then chat. It speaks only the people's API
 * (/api/client/v1) and its live connection; ids are internal, never snowflakes.
 */
import { render } from "preact";
import { useEffect } from "preact/hooks";
import { signal } from "@preact/signals";
import { api, storedToken, storeToken } from "./api";
import { LiveClient } from "./live";
import { open, routeOf } from "./load";
import { me, notice, route } from "./state";
import type { Me } from "./types";
import { SignIn } from "./views/SignIn";
import { Chat } from "./views/Chat";

const signedIn = signal(storedToken() !== null);
const live = new LiveClient();

function App() {
  useEffect(() => {
    route.value = routeOf(location.pathname);
    const onPop = () => void open(routeOf(location.pathname), false);
    addEventListener("popstate", onPop);
    if (signedIn.value) live.start();
    return () => removeEventListener("popstate", onPop);
  }, []);

  function onSignedIn(token: string, user: Me) {
    storeToken(token);
    me.value = user;
    signedIn.value = true;
    live.start();
  }

  async function signOut() {
    live.stop();
    await api("POST", "/auth/signout").catch(() => undefined);
    storeToken(null);
    me.value = null;
    notice.value = null;
    signedIn.value = false;
    history.replaceState(null, "", "/");
  }

  return signedIn.value ? <Chat onSignOut={signOut} /> : <SignIn onSignedIn={onSignedIn} />;
}

render(<App />, document.getElementById("app")!);
