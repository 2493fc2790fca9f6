/**
 * The server's channels in order, by category, as the rail shows them (channel-groups.ts):
 * "Move <channel> up" / "Move <channel> down" (one request each: PATCH
 * /guilds/{id}/channels), a category picker per channel, "Delete <channel>" (asks once,
 * says its messages go too); and per category "Name of <category>" with "Rename
 * <category>", "Move category <category> up" / "down" and "Delete category <category>"
 * (asks once; its channels move to the top level). "Create category" makes one.
 * With a pointer, a channel's row is also dragged to its place, within its category or
 * into another (channel-moves.ts: one request a drop); the new order shows at once and
 * goes back should the server refuse. A channel moving into a category whose permissions
 * differ is asked whether to take them (MoveInto.tsx), by the picker as by a drop.
 */
import { useState } from "preact/hooks";
import { api } from "../api";
import { CATEGORY, channelGroups } from "../channel-groups";
import { guilds } from "../state";
import type { Channel, Guild } from "../types";
import { Confirm, ErrorLine, errorText } from "../views/ui";
import { useKeptFocus, useRequest } from "./common";
import { headKey, listKey, moveBody, planDrop, planned } from "./channel-moves";
import { useDragRows, type DropAt } from "./drag";
import { MoveInto } from "./MoveInto";
import { maySync, sameOverwrites } from "./sync";

type Request = ReturnType<typeof useRequest>;
type Body = { id: string; position?: number; parent_id?: string | null; lock_permissions?: boolean }[];

/** How a channel or category is named in the section's messages. */
const called = (c: Channel) => (c.type === CATEGORY ? `Category ${c.name}` : `#${c.name}`);

/** A move into a category, waiting on whether the channel takes the category's permissions. */
interface Asking {
  channel: Channel;
  category: Channel;
  send(lock: boolean): void;
}

/** Whether moving `c` into `category` asks about permissions: they differ, and the person may give it the category's. */
const asks = (c: Channel, category: Channel | null): category is Channel => !!category && maySync(c) && !sameOverwrites(c, category);

/** Longer than 80 lines because the order, the categories and the deletion share one request and its outcome. */
export function ChannelOrder({ guild }: { guild: Guild }) {
  const req = useRequest();
  const [deleting, setDeleting] = useState<Channel | null>(null);
  const [asking, setAsking] = useState<Asking | null>(null);
  // A dropped channel's new place, shown while the server is asked; gone when it answers.
  const [preview, setPreview] = useState<Map<string, Partial<Channel>> | null>(null);
  const [category, setCategory] = useState("");
  const keep = useKeptFocus();
  const shown = preview ? { ...guild, channels: guild.channels.map((c) => ({ ...c, ...preview.get(c.id) })) } : guild;
  const groups = channelGroups(shown);
  const cats = groups.flatMap((x) => (x.category ? [x.category] : []));
  const put = (list: Channel[]) => {
    const byId = new Map(list.map((c) => [c.id, c]));
    guilds.value = guilds.value.map((g) => (g.id === guild.id ? { ...g, channels: g.channels.map((c) => byId.get(c.id) ?? c) } : g));
  };
  /** One request; its answer is the order from then on. A refusal shows its reason, and the preview goes: the order snaps back. */
  async function send(body: Body, done: string, next?: Map<string, Partial<Channel>>) {
    setPreview(next ?? null);
    const list = await req.run(
      () => api<Channel[]>("PATCH", `/guilds/${guild.id}/channels`, body),
      () => done,
    );
    if (list) put(list);
    setPreview(null);
  }
  async function move(c: Channel, delta: -1 | 1, siblings: Channel[]) {
    // Not disabled while a request runs: a disabled button loses focus (useKeptFocus).
    if (req.busy) return;
    keep(`${c.id}:${delta}`);
    const i = siblings.indexOf(c);
    const j = i + delta;
    if (j < 0 || j >= siblings.length) return;
    const next = [...siblings];
    [next[i], next[j]] = [next[j], next[i]];
    await send(
      next.map((x, k) => ({ id: x.id, position: k })),
      `${called(c)} moved ${delta < 0 ? "up" : "down"}.`,
    );
  }
  function reparent(c: Channel, parent: string) {
    keep(`${c.id}:category`);
    const into = guild.channels.find((x) => x.id === parent && x.type === CATEGORY) ?? null;
    const go = (lock: boolean) => {
      // Again once asked: the keys pressed in the question let go of the first wish, and the row is yet to move.
      keep(`${c.id}:category`);
      return send([{ id: c.id, parent_id: into?.id ?? null, ...(lock ? { lock_permissions: true } : {}) }], `#${c.name} moved.`);
    };
    if (asks(c, into)) setAsking({ channel: c, category: into, send: go });
    else void go(false);
  }
  function dropped(id: string, at: DropAt) {
    const plan = req.busy ? null : planDrop(groups, id, at);
    if (!plan) return;
    const go = (lock: boolean) => send(moveBody(plan, lock), `#${plan.channel.name} moved.`, planned(plan));
    if (plan.moves && asks(plan.channel, plan.category)) setAsking({ channel: plan.channel, category: plan.category, send: go });
    else void go(false);
  }
  const drag = useDragRows(dropped);
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
        () => `${called(c)} deleted.`,
      )
    )
      setDeleting(null);
  }
  return (
    <section class="card" aria-labelledby="order-title">
      <h3 id="order-title">Order and categories</h3>
      <ErrorLine error={req.error && !deleting ? errorText(req.error) : undefined} />
      <p role="status" class="hint">
        {req.status}
      </p>
      {groups.map(({ category: head, channels: items }) => (
        <div key={head?.id ?? "top"}>
          {head && (
            <CategoryHead
              category={head}
              cats={cats}
              req={req}
              onMove={move}
              onDelete={setDeleting}
              drop={{ ...drag.zone(headKey(head), "start"), class: drag.mark(headKey(head)) }}
            />
          )}
          <ul
            class={["rows", drag.dragging && "drop-list", drag.mark(listKey(head))].filter(Boolean).join(" ")}
            aria-label={head ? `Category ${head.name}` : "Channels outside categories"}
            {...drag.zone(listKey(head), "end")}
          >
            {items.map((c, i) => (
              <li key={c.id} class={drag.mark(c.id)} {...drag.source(c.id, true)} {...drag.zone(c.id)}>
                <span class="row-name">#{c.name}</span>
                <button type="button" data-keep={`${c.id}:-1`} disabled={i === 0} onClick={() => move(c, -1, items)}>
                  Move {c.name} up
                </button>
                <button type="button" data-keep={`${c.id}:1`} disabled={i === items.length - 1} onClick={() => move(c, 1, items)}>
                  Move {c.name} down
                </button>
                {cats.length > 0 && (
                  <select
                    aria-label={`Category for ${c.name}`}
                    data-keep={`${c.id}:category`}
                    value={c.parent_id ?? ""}
                    onChange={(e) => {
                      const picked = e.currentTarget.value;
                      // Shown as it is until the server says otherwise: the move may be asked about, and called off.
                      e.currentTarget.value = c.parent_id ?? "";
                      reparent(c, picked);
                    }}
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
        </div>
      ))}
      <form class="inline-form" onSubmit={createCategory} noValidate>
        <div class="field">
          <label for="category-name">Category name</label>
          <input id="category-name" value={category} onInput={(e) => setCategory(e.currentTarget.value)} />
        </div>
        <button type="submit" disabled={req.busy || !category.trim()}>
          Create category
        </button>
      </form>
      {asking && (
        <MoveInto
          channel={asking.channel}
          category={asking.category}
          onMove={(lock) => {
            setAsking(null);
            asking.send(lock);
          }}
          onCancel={() => setAsking(null)}
        />
      )}
      {deleting && (
        <Confirm
          title={deleting.type === CATEGORY ? `Delete category ${deleting.name}?` : `Delete #${deleting.name}?`}
          confirm={deleting.type === CATEGORY ? "Delete category" : "Delete channel"}
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

/** A category's own row: its name to change, its place among the categories, and deleting it. */
function CategoryHead(props: {
  category: Channel;
  cats: Channel[];
  req: Request;
  onMove(c: Channel, delta: -1 | 1, siblings: Channel[]): void;
  onDelete(c: Channel): void;
  /** Where a dragged channel is dropped to go first in this category. */
  drop: ReturnType<ReturnType<typeof useDragRows>["zone"]> & { class?: string };
}) {
  const { category: cat, cats, req } = props;
  const [name, setName] = useState(cat.name ?? "");
  const i = cats.indexOf(cat);
  const id = `category-name-${cat.id}`;
  async function rename(e: Event) {
    e.preventDefault();
    await req.run(
      () => api<Channel>("PATCH", `/channels/${cat.id}`, { name: name.trim() }),
      (c) => `${cat.name} renamed to ${c.name}.`,
    );
  }
  return (
    <form {...props.drop} class={["inline-form category-head", props.drop.class].filter(Boolean).join(" ")} onSubmit={rename} noValidate>
      <div class="field">
        <label for={id}>Name of {cat.name}</label>
        <input id={id} value={name} maxLength={100} onInput={(e) => setName(e.currentTarget.value)} />
      </div>
      <button type="submit" disabled={req.busy || !name.trim() || name.trim() === cat.name}>
        Rename {cat.name}
      </button>
      <button type="button" data-keep={`${cat.id}:-1`} disabled={i === 0} onClick={() => props.onMove(cat, -1, cats)}>
        Move category {cat.name} up
      </button>
      <button type="button" data-keep={`${cat.id}:1`} disabled={i === cats.length - 1} onClick={() => props.onMove(cat, 1, cats)}>
        Move category {cat.name} down
      </button>
      <button type="button" class="danger" onClick={() => props.onDelete(cat)}>
        Delete category {cat.name}
      </button>
    </form>
  );
}
