/**
 * The server's channels in order, by category: "Move <channel> up" / "Move <channel>
 * down" (one request each: PATCH /guilds/{id}/channels), a category picker per channel,
 * "Create category", and "Delete <channel>" (asks once, says its messages go too).
 */
import { useState } from "preact/hooks";
import { api } from "../api";
import { guilds } from "../state";
import type { Channel, Guild } from "../types";
import { Confirm, ErrorLine, errorText } from "../views/ui";
import { useRequest } from "./common";

const CATEGORY = 4;

/** Channels as the rail shows them: top-level ones, then each category with its own, by position. */
function ordered(g: Guild): Channel[][] {
  const byPos = (a: Channel, b: Channel) => (a.position ?? 0) - (b.position ?? 0) || a.id.localeCompare(b.id);
  const cats = g.channels.filter((c) => c.type === CATEGORY).sort(byPos);
  const top = g.channels.filter((c) => c.type !== CATEGORY && !c.parent_id).sort(byPos);
  return [top, ...cats.map((cat) => [cat, ...g.channels.filter((c) => c.parent_id === cat.id).sort(byPos)])];
}

/** Longer than 80 lines because the order, the categories and the deletion share one request and its outcome. */
export function ChannelOrder({ guild }: { guild: Guild }) {
  const req = useRequest();
  const [deleting, setDeleting] = useState<Channel | null>(null);
  const [category, setCategory] = useState("");
  const put = (list: Channel[]) => {
    const byId = new Map(list.map((c) => [c.id, c]));
    guilds.value = guilds.value.map((g) => (g.id === guild.id ? { ...g, channels: g.channels.map((c) => byId.get(c.id) ?? c) } : g));
  };
  async function move(c: Channel, delta: -1 | 1, siblings: Channel[]) {
    const i = siblings.indexOf(c);
    const j = i + delta;
    if (j < 0 || j >= siblings.length) return;
    const next = [...siblings];
    [next[i], next[j]] = [next[j], next[i]];
    const body = next.map((x, k) => ({ id: x.id, position: k }));
    const list = await req.run(
      () => api<Channel[]>("PATCH", `/guilds/${guild.id}/channels`, body),
      () => `#${c.name} moved ${delta < 0 ? "up" : "down"}.`,
    );
    if (list) put(list);
  }
  async function reparent(c: Channel, parent: string) {
    const list = await req.run(
      () => api<Channel[]>("PATCH", `/guilds/${guild.id}/channels`, [{ id: c.id, parent_id: parent || null }]),
      () => `#${c.name} moved.`,
    );
    if (list) put(list);
  }
  async function createCategory(e: Event) {
    e.preventDefault();
    const made = await req.run(
      () => api<Channel>("POST", `/guilds/${guild.id}/channels`, { name: category.trim(), type: CATEGORY }),
      (c) => `Category ${c.name} created.`,
    );
    if (made) setCategory("");
  }
  async function remove(c: Channel) {
    if (
      await req.run(
        () => api("DELETE", `/channels/${c.id}`),
        () => `#${c.name} deleted.`,
      )
    )
      setDeleting(null);
  }
  const cats = guild.channels.filter((c) => c.type === CATEGORY);
  return (
    <section class="card" aria-labelledby="order-title">
      <h3 id="order-title">Order and categories</h3>
      <ErrorLine error={req.error && !deleting ? errorText(req.error) : undefined} />
      <p role="status" class="hint">
        {req.status}
      </p>
      {ordered(guild).map((group) => {
        const head = group[0]?.type === CATEGORY ? group[0] : null;
        const items = head ? group.slice(1) : group;
        return (
          <ul class="rows" aria-label={head ? `Category ${head.name}` : "Channels outside categories"} key={head?.id ?? "top"}>
            {items.map((c, i) => (
              <li key={c.id}>
                <span class="row-name">#{c.name}</span>
                <button type="button" disabled={req.busy || i === 0} onClick={() => move(c, -1, items)}>
                  Move {c.name} up
                </button>
                <button type="button" disabled={req.busy || i === items.length - 1} onClick={() => move(c, 1, items)}>
                  Move {c.name} down
                </button>
                {cats.length > 0 && (
                  <select
                    aria-label={`Category for ${c.name}`}
                    value={c.parent_id ?? ""}
                    onChange={(e) => reparent(c, e.currentTarget.value)}
                  >
                    <option value="">No category</option>
                    {cats.map((k) => (
                      <option key={k.id} value={k.id}>
                        {k.name}
                      </option>
                    ))}
                  </select>
                )}
                <button type="button" class="danger" onClick={() => setDeleting(c)}>
                  Delete {c.name}
                </button>
              </li>
            ))}
          </ul>
        );
      })}
      <form class="inline-form" onSubmit={createCategory} noValidate>
        <div class="field">
          <label for="category-name">Category name</label>
          <input id="category-name" value={category} onInput={(e) => setCategory(e.currentTarget.value)} />
        </div>
        <button type="submit" disabled={req.busy || !category.trim()}>
          Create category
        </button>
      </form>
      {deleting && (
        <Confirm
          title={`Delete #${deleting.name}?`}
          confirm="Delete channel"
          busy={req.busy}
          error={req.error ? errorText(req.error) : undefined}
          onConfirm={() => remove(deleting)}
          onCancel={() => setDeleting(null)}
        >
          <p>{deleting.type === CATEGORY ? "Its channels move to the top level." : "Its messages go with it, for good."}</p>
        </Confirm>
      )}
    </section>
  );
}
