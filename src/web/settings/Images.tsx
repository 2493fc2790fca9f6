/**
 * Pictures in the settings (issue 31): a server's icon ("Server icon", Manage Server),
 * its emoji ("Emoji": "Emoji name", "Emoji image", "Upload emoji", "Delete <name>";
 * Manage Expressions), and one's avatar (User settings, "Profile"). Each picture is
 * uploaded as a slot of its purpose, then set; what the server refused shows beside it.
 */
import { useEffect, useState } from "preact/hooks";
import { api, storedToken, ApiError, refusalText } from "../api";
import { guilds, me } from "../state";
import type { CustomEmoji, Guild, Me } from "../types";
import { Confirm, ErrorLine, Field, errorText, fieldError } from "../views/ui";
import { useRequest } from "./common";
import { Avatar } from "../views/files/Avatar";
import { focusWhenGone } from "../views/focus";

/** Upload an image of `purpose` and answer its slot's id (the settings' pictures, the portal's icon). */
export async function uploadImage(purpose: "avatar" | "icon" | "emoji", file: File, guildId?: string): Promise<string> {
  const slot = await api<{ id: string; upload_url: string }>("POST", "/uploads", {
    purpose,
    filename: file.name || "image",
    size: file.size,
    ...(guildId ? { guild_id: guildId } : {}),
  });
  const token = storedToken();
  const res = await fetch(slot.upload_url, {
    method: "PUT",
    headers: { "Content-Type": "application/octet-stream", ...(token ? { Authorization: `Session ${token}` } : {}) },
    body: file,
  });
  if (!res.ok) {
    const j = (await res.json().catch(() => ({}))) as { code?: number; message?: string; errors?: Record<string, unknown> };
    throw new ApiError(res.status, j.code ?? 0, refusalText(j, res.status), j.errors ?? null);
  }
  return slot.id;
}

function replaceGuild(g: Guild): void {
  guilds.value = guilds.value.map((x) => (x.id === g.id ? g : x));
}

/** `chosen`: the file picked and kept for a later button, named, since the input is emptied once read. */
function ImageInput({ id, label, onFile, chosen }: { id: string; label: string; onFile(f: File): void; chosen?: File | null }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        type="file"
        aria-describedby={chosen ? `${id}-chosen` : undefined}
        accept="image/png,image/jpeg,image/gif,image/webp,image/avif"
        onChange={(e) => {
          const f = e.currentTarget.files?.[0];
          if (f) onFile(f);
          e.currentTarget.value = "";
        }}
      />
      {chosen && (
        <p id={`${id}-chosen`} class="hint">
          {`Chosen: ${chosen.name}`}
        </p>
      )}
    </div>
  );
}

export function ServerIcon({ guild }: { guild: Guild }) {
  const req = useRequest();
  const set = (file: File | null) =>
    req.run(
      async () =>
        replaceGuild(
          await api<Guild>("PUT", `/guilds/${guild.id}/icon`, { upload_id: file ? await uploadImage("icon", file, guild.id) : null }),
        ),
      () => (file ? "Icon saved." : "Icon removed."),
    );
  return (
    <section class="card" aria-labelledby="icon-title">
      <h3 id="icon-title">Server icon</h3>
      {guild.icon && (
        <img class="server-icon" src={`/icons/${guild.id}/${guild.icon}.png`} alt={`Icon of ${guild.name}`} width={64} height={64} />
      )}
      <ImageInput id="server-icon" label="Choose a server icon" onFile={(f) => void set(f)} />
      {guild.icon && (
        <button
          type="button"
          disabled={req.busy}
          onClick={(e) => {
            // The button leaves with the icon: focus goes to choosing another, not the page's body.
            focusWhenGone(e.currentTarget, () => document.getElementById("server-icon"));
            void set(null);
          }}
        >
          Remove icon
        </button>
      )}
      {req.error ? <ErrorLine error={errorText(req.error)} /> : req.status && <p role="status">{req.status}</p>}
    </section>
  );
}

export function Emoji({ guild }: { guild: Guild }) {
  const [list, setList] = useState<CustomEmoji[]>([]);
  const [name, setName] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [deleting, setDeleting] = useState<CustomEmoji | null>(null);
  const req = useRequest();
  const reload = () => api<CustomEmoji[]>("GET", `/guilds/${guild.id}/emojis`).then(setList, () => undefined);
  useEffect(() => void reload(), [guild.id]);
  async function upload(e: Event) {
    e.preventDefault();
    if (!file) return;
    const made = await req.run(
      async () =>
        api<CustomEmoji>("POST", `/guilds/${guild.id}/emojis`, {
          name: name.trim(),
          upload_id: await uploadImage("emoji", file, guild.id),
        }),
      (x) => `:${x.name}: added.`,
    );
    if (made) {
      setName("");
      setFile(null);
      // Upload emoji stays disabled until the next name and image: focus goes to the name, not the page's body.
      document.getElementById("emoji-name")?.focus();
      void reload();
    }
  }
  async function remove(x: CustomEmoji) {
    if (
      await req.run(
        () => api("DELETE", `/guilds/${guild.id}/emojis/${x.id}`),
        () => `:${x.name}: deleted.`,
      )
    ) {
      setDeleting(null);
      void reload();
    }
  }
  return (
    <form class="card" onSubmit={upload} noValidate aria-labelledby="emoji-title">
      <h3 id="emoji-title">Emoji</h3>
      <EmojiList list={list} onDelete={setDeleting} />
      <Field
        id="emoji-name"
        label="Emoji name"
        value={name}
        onInput={setName}
        error={fieldError(req.error, "name")}
        hint="2 to 32 letters, digits or underscores"
      />
      <ImageInput id="emoji-image" label="Emoji image" onFile={setFile} chosen={file} />
      <button type="submit" class="primary" disabled={req.busy || !file || !name.trim()}>
        Upload emoji
      </button>
      {req.error && !fieldError(req.error, "name") ? (
        <ErrorLine error={errorText(req.error)} />
      ) : (
        req.status && <p role="status">{req.status}</p>
      )}
      {deleting && (
        <Confirm
          title={`Delete :${deleting.name}:?`}
          confirm="Delete emoji"
          busy={req.busy}
          error={req.error ? errorText(req.error) : undefined}
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        >
          <p>Messages and reactions that use it show its name instead.</p>
        </Confirm>
      )}
    </form>
  );
}

/** A server's emoji, each with "Delete <name>" (which asks first). */
function EmojiList({ list, onDelete }: { list: CustomEmoji[]; onDelete(x: CustomEmoji): void }) {
  return (
    <ul class="emoji-list">
      {list.map((x) => (
        <li key={x.id}>
          <img class="emoji custom" src={x.url} alt={`:${x.name}:`} width={32} height={32} /> :{x.name}:
          <button type="button" onClick={() => onDelete(x)}>
            Delete {x.name}
          </button>
        </li>
      ))}
    </ul>
  );
}

/** User settings' "Profile": one's avatar. */
/** The person's avatar, in the Profile section beside the display name. */
export function AvatarSetting() {
  const req = useRequest();
  const person = me.value;
  const set = (file: File | null) =>
    req.run(
      async () => (me.value = await api<Me>("PATCH", "/users/@me", { avatar_upload: file ? await uploadImage("avatar", file) : null })),
      () => (file ? "Avatar saved." : "Avatar removed."),
    );
  if (!person) return null;
  return (
    // A plain group under the Profile section: its file input alone is labelled "Avatar".
    <div class="avatar-setting">
      <h4>Picture</h4>
      <Avatar user={person} name={person.global_name || person.username} named />
      <ImageInput id="avatar" label="Avatar" onFile={(f) => void set(f)} />
      {person.avatar && (
        <button type="button" onClick={() => void set(null)} disabled={req.busy}>
          Remove avatar
        </button>
      )}
      {req.error ? <ErrorLine error={errorText(req.error)} /> : req.status && <p role="status">{req.status}</p>}
    </div>
  );
}
