/** What the server settings' parts share: the text channels, and a request that shows its outcome. */
import { signal } from "@preact/signals";
import { useState } from "preact/hooks";
import type { Channel, Guild } from "../types";

export const textChannels = (g: Guild): Channel[] => g.channels.filter((c) => c.type === 0 || c.type === 5);

/**
 * What run() answers: the request's answer, `true` for one with no body (a 204: a delete),
 * or null when it failed. So `if (await req.run(...))` reads "if it worked" for every
 * request: a delete's empty answer had read as a failure, and left its confirmation open.
 */
type Outcome<T> = (undefined extends T ? T | true : T) | null;

/** A request that shows its outcome: an error next to the control, or a short status. */
export function useRequest() {
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);
  async function run<T>(what: () => Promise<T>, done: (r: T) => string): Promise<Outcome<T>> {
    setBusy(true);
    setError(null);
    setStatus("");
    try {
      const r = await what();
      setStatus(done(r));
      return (r === undefined ? true : r) as Outcome<T>;
    } catch (e) {
      setError(e);
      return null;
    } finally {
      setBusy(false);
    }
  }
  return { error, status, busy, run };
}

/** The server whose settings are open in place of its channel, if any. */
export const settingsFor = signal<string | null>(null);
