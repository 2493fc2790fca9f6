/**
 * User settings' Profile and Devices sections: one's display name (any script; the
 * server's reason beside the field), and one's end-to-end devices, each with a name one
 * can edit, when it was last used, and "Remove <device>".
 */
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { me } from "../state";
import type { DeviceJson, Me } from "../types";
import { Confirm, ErrorLine, Field, errorText, fieldError } from "../views/ui";
import { useRequest } from "./common";

export function Profile() {
  const [name, setName] = useState(me.value?.global_name ?? "");
  const req = useRequest();
  async function save(e: Event) {
    e.preventDefault();
    const u = await req.run(
      () => api<Me>("PATCH", "/users/@me", { global_name: name.trim() || null }),
      (u) => (u.global_name ? `Your display name is ${u.global_name}.` : "Display name cleared."),
    );
    if (u) me.value = { ...me.value!, ...u };
  }
  const error = fieldError(req.error, "global_name");
  return (
    <section aria-labelledby="profile-title">
      <h3 id="profile-title">Profile</h3>
      <form class="card" onSubmit={save} noValidate>
        <Field
          id="display-name"
          label="Display name"
          value={name}
          onInput={setName}
          error={error}
          hint="What others see; any script, up to 32 characters. Empty: your username."
        />
        <button type="submit" class="primary" disabled={req.busy}>
          Save display name
        </button>
        <ErrorLine error={req.error && !error ? errorText(req.error) : undefined} />
        <p role="status" class="hint">
          {req.status}
        </p>
      </form>
    </section>
  );
}

export function Devices() {
  const [list, setList] = useState<DeviceJson[] | null>(null);
  const [removing, setRemoving] = useState<DeviceJson | null>(null);
  const req = useRequest();
  const load = () =>
    req
      .run(
        () => api<DeviceJson[]>("GET", "/users/@me/devices"),
        () => "",
      )
      .then((d) => d && setList(d.filter((x) => !x.backup)));
  useEffect(() => void load(), []);
  async function remove(d: DeviceJson) {
    if (
      await req.run(
        () => api("DELETE", `/users/@me/devices/${d.id}`),
        () => `${d.name} removed.`,
      )
    ) {
      setRemoving(null);
      await load();
    }
  }
  return (
    <section aria-labelledby="devices-title">
      <h3 id="devices-title">Devices</h3>
      <p class="hint">Each browser you sign in to keeps keys for your encrypted direct messages. Remove the ones you no longer use.</p>
      <p role="status" class="hint">
        {req.status}
      </p>
      {!removing && <ErrorLine error={req.error ? errorText(req.error) : undefined} />}
      {list && !list.length && <p class="muted">No device yet: open your direct messages in a browser to make one.</p>}
      <ul class="rows" aria-label="Your devices">
        {list?.map((d) => (
          <DeviceRow key={d.id} device={d} onRenamed={load} onRemove={() => setRemoving(d)} />
        ))}
      </ul>
      {removing && (
        <Confirm
          title={`Remove ${removing.name}?`}
          confirm="Remove"
          busy={req.busy}
          error={req.error ? errorText(req.error) : undefined}
          onConfirm={() => remove(removing)}
          onCancel={() => setRemoving(null)}
        >
          <p>The browser holding it is signed out, and it can no longer read new encrypted messages.</p>
        </Confirm>
      )}
    </section>
  );
}

function DeviceRow({ device, onRenamed, onRemove }: { device: DeviceJson; onRenamed(): void; onRemove(): void }) {
  const [name, setName] = useState(device.name);
  const req = useRequest();
  async function rename(e: Event) {
    e.preventDefault();
    if (
      await req.run(
        () => api<DeviceJson>("PATCH", `/users/@me/devices/${device.id}`, { name: name.trim() }),
        (d) => `Renamed to ${d.name}.`,
      )
    )
      onRenamed();
  }
  const error = fieldError(req.error, "name");
  return (
    <li>
      <form class="inline-form" onSubmit={rename} noValidate>
        <Field id={`device-${device.id}`} label={`Name for ${device.name}`} value={name} onInput={setName} error={error} />
        <button type="submit" disabled={req.busy}>
          Rename
        </button>
      </form>
      <span class="muted">Last used {new Date(device.last_used_at ?? device.created_at).toLocaleString()}</span>
      <button type="button" class="danger" onClick={onRemove}>
        Remove {device.name}
      </button>
      <ErrorLine error={req.error && !error ? errorText(req.error) : undefined} />
      <p role="status" class="hint">
        {req.status}
      </p>
    </li>
  );
}
