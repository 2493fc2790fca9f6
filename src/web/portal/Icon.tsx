/**
 * An application's icon: its bot's avatar, the picture people see beside the bot's
 * messages and in member lists ("Choose an icon", "Remove icon"). The file goes up as an
 * avatar slot of the owner's, then the application takes it; what the server refused
 * (not an image, too large) shows beside the control.
 */
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { useRequest } from "../settings/common";
import { uploadImage } from "../settings/Images";
import { ErrorLine, errorText } from "../views/ui";
import type { Application } from "./types";

export function Icon({ app }: { app: Application }) {
  const [icon, setIcon] = useState<string | null>(null);
  const req = useRequest();
  useEffect(() => {
    api<{ icon: string | null }>("GET", `/applications/${app.id}/icon`).then(
      (r) => setIcon(r.icon),
      () => undefined,
    );
  }, [app.id]);
  const set = (file: File | null) =>
    req.run(
      async () => {
        const upload = file ? await uploadImage("avatar", file) : null;
        setIcon((await api<{ icon: string | null }>("PUT", `/applications/${app.id}/icon`, { upload_id: upload })).icon);
      },
      () => (file ? "Icon saved." : "Icon removed."),
    );
  return (
    <section class="card" aria-labelledby="icon-title">
      <h2 id="icon-title">Icon</h2>
      <p class="hint" id="app-icon-hint">
        The bot's avatar: shown beside its messages and in member lists. PNG, JPEG, GIF, WebP or AVIF.
      </p>
      {icon && (
        <img class="server-icon" src={`/avatars/${app.bot_user_id}/${icon}.png`} alt={`Icon of ${app.name}`} width={64} height={64} />
      )}
      <div class="field">
        <label for="app-icon">Choose an icon</label>
        <input
          id="app-icon"
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp,image/avif"
          aria-describedby="app-icon-hint"
          disabled={req.busy}
          onChange={(e) => {
            const f = e.currentTarget.files?.[0];
            if (f) void set(f);
            e.currentTarget.value = "";
          }}
        />
      </div>
      {icon && (
        <button type="button" onClick={() => void set(null)} disabled={req.busy}>
          Remove icon
        </button>
      )}
      {req.error ? <ErrorLine error={errorText(req.error)} /> : <p role="status">{req.status}</p>}
    </section>
  );
}
