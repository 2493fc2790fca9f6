/**
 * The key backup, in a DM's Safety number panel: make one (or replace it) under a
 * passphrase, and on a device that cannot read older messages, restore it with that
 * passphrase. The passphrase never leaves the browser.
 */
import { useId, useState } from "preact/hooks";
import { makeBackup, passphraseProblem, restoreBackup } from "../backup";
import { loadDevices, openedOf } from "../dm-crypto";
import { logs, me } from "../state";
import type { DeviceJson } from "../types";
import { useFocusThrough } from "./focus";

export function KeyBackup({ channelId, list }: { channelId: string; list: DeviceJson[] }) {
  const [mode, setMode] = useState<"idle" | "create" | "restore">("idle");
  const [done, setDone] = useState<string | null>(null);
  const backups = list.filter((d) => d.user_id === me.value?.id && d.backup);
  const has = backups.some((d) => d.removed_at === null);
  // Offered only where it can help: a backup exists and some message is older than this device.
  const unreadable =
    backups.length > 0 && (logs.value[channelId]?.list ?? []).some((m) => m.ciphertext !== null && openedOf(m)?.state === "before_device");
  const finish = (text: string) => {
    setMode("idle");
    setDone(text);
  };
  return (
    <div class="key-backup">
      {unreadable && (
        <button type="button" onClick={() => setMode("restore")}>
          Read older messages from your key backup
        </button>
      )}
      <button type="button" onClick={() => setMode("create")}>
        {has ? "Replace the key backup" : "Set up a key backup"}
      </button>
      {done && <p role="status">{done}</p>}
      {mode === "create" && (
        <PassphraseForm
          confirm
          action="Create backup"
          run={async (passphrase) => {
            await makeBackup(passphrase);
            await loadDevices(channelId, true);
            finish("Key backup made: a new device can read what is sent from now on, with this passphrase.");
            return null;
          }}
        />
      )}
      {mode === "restore" && (
        <PassphraseForm
          action="Restore"
          run={async (passphrase) => {
            if (!(await restoreBackup(passphrase))) return "That passphrase opens no key backup of yours.";
            finish("Key backup restored on this device.");
            return null;
          }}
        />
      )}
    </div>
  );
}

function PassphraseForm({ confirm, action, run }: { confirm?: boolean; action: string; run(passphrase: string): Promise<string | null> }) {
  const [passphrase, setPassphrase] = useState("");
  const [again, setAgain] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useFocusThrough(busy);
  const errorId = useId();
  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    try {
      // Checked here, before anything is sealed: the server never sees the passphrase.
      setError((confirm && (await passphraseProblem(passphrase, again))) || (await run(passphrase)));
    } catch (err) {
      setError(err instanceof Error && !(err instanceof TypeError) ? err.message : "The server could not be reached.");
    } finally {
      setBusy(false);
    }
  }
  return (
    <form class="passphrase" onSubmit={submit}>
      <label>
        Backup passphrase{" "}
        <input
          type="password"
          autocomplete="off"
          value={passphrase}
          aria-invalid={error ? "true" : undefined}
          aria-describedby={error ? errorId : undefined}
          onInput={(e) => setPassphrase(e.currentTarget.value)}
        />
      </label>
      {confirm && (
        <label>
          Repeat the passphrase <input type="password" autocomplete="off" value={again} onInput={(e) => setAgain(e.currentTarget.value)} />
        </label>
      )}
      <button type="submit" disabled={busy}>
        {action}
      </button>
      {error && (
        <p role="alert" id={errorId}>
          {error}
        </p>
      )}
    </form>
  );
}
