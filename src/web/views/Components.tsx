/**
 * Message components: buttons of every style (link buttons are links; disabled ones are
 * greyed), string selects as comboboxes named by their placeholder, the user, role,
 * mentionable and channel selects (types 5 to 8) shown greyed, and the layout pieces of
 * components v2 (rows, sections, text, separators, containers).
 */
import { useRef, useState } from "preact/hooks";
import { clickComponent } from "../actions";
import { focusWhenGone } from "./focus";
import { Markdown } from "../markdown";
import type { Component, Message } from "../types";
import { cssColor, safeUrl } from "../urls";

const STYLES: Record<number, string> = { 1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium" };

/**
 * A component used from the keyboard is often taken away by the bot's answer (an update
 * with other components, or none): focus lost with it goes to what is left of the
 * message's components, else to the message itself, never to the page's body.
 */
function keepInMessage(control: HTMLElement, m: Message): void {
  focusWhenGone(control, () => {
    const article = document.querySelector<HTMLElement>(`.log article[data-id="${CSS.escape(m.id)}"]`);
    const left = article?.querySelector<HTMLElement>(".components :is(button, select, a[href]):not(:disabled)");
    return left ?? article;
  });
}

export function Components({ m }: { m: Message }) {
  return (
    <div class="components">
      {m.components.map((c, i) => (
        <Piece key={i} c={c} m={m} />
      ))}
    </div>
  );
}

function Piece({ c, m }: { c: Component; m: Message }) {
  switch (c.type) {
    case 1:
      return (
        <div class="row">
          {(c.components ?? []).map((x, i) => (
            <Piece key={i} c={x} m={m} />
          ))}
        </div>
      );
    case 2:
      return <ButtonPiece c={c} m={m} />;
    case 3:
      return (c.max_values ?? 1) > 1 ? <MultiSelect c={c} m={m} /> : <StringSelect c={c} m={m} />;
    case 5:
    case 6:
    case 7:
    case 8:
      return (
        <select class="select" disabled aria-label={c.placeholder || "Select"} title="This kind of menu cannot be used here yet">
          <option>{c.placeholder || "Select"}</option>
        </select>
      );
    case 9:
      return (
        <div class="section">
          <div>
            {(c.components ?? []).map((x, i) => (
              <Piece key={i} c={x} m={m} />
            ))}
          </div>
          {c.accessory && <Piece c={c.accessory} m={m} />}
        </div>
      );
    case 10:
      return (
        <div class="text-display">
          <Markdown source={String(c.content ?? "")} />
        </div>
      );
    case 14:
      return <hr class="separator" />;
    case 17: {
      const color = cssColor(c.accent_color);
      return (
        <div class="container" style={color ? { borderLeftColor: color } : undefined}>
          {(c.components ?? []).map((x, i) => (
            <Piece key={i} c={x} m={m} />
          ))}
        </div>
      );
    }
    default:
      return null;
  }
}

function ButtonPiece({ c, m }: { c: Component; m: Message }) {
  const label = `${c.emoji?.name ? `${c.emoji.name} ` : ""}${c.label ?? ""}`.trim() || "Button";
  const style = STYLES[c.style ?? 1] ?? "secondary";
  if (c.style === 5) {
    const href = safeUrl(c.url);
    // A link button whose URL is not http(s) is no link at all.
    if (!href || c.disabled)
      return (
        <button type="button" class="btn link" disabled>
          {label}
        </button>
      );
    return (
      <a class="btn link" href={href} target="_blank" rel="noopener noreferrer nofollow">
        {label} <span aria-hidden="true">↗</span>
      </a>
    );
  }
  const usable = !c.disabled && c.style !== 6 && !!c.custom_id;
  return (
    <button
      type="button"
      class={`btn ${style}`}
      disabled={!usable}
      onClick={(e) => {
        if (!usable) return;
        keepInMessage(e.currentTarget, m);
        void clickComponent(m, c.custom_id!);
      }}
    >
      {label}
    </button>
  );
}

/** The values a select starts with: its options marked `default`, as the reference shows them. */
function defaults(c: Component): string[] {
  return (c.options ?? []).filter((o) => o.default).map((o) => o.value);
}

function StringSelect({ c, m }: { c: Component; m: Message }) {
  const name = c.placeholder || "Select";
  const start = defaults(c)[0] ?? "";
  return (
    <select
      class="select"
      aria-label={name}
      disabled={!!c.disabled}
      value={start}
      onChange={(e) => {
        const v = e.currentTarget.value;
        e.currentTarget.value = start;
        if (!v || !c.custom_id) return;
        keepInMessage(e.currentTarget, m);
        void clickComponent(m, c.custom_id, [v]);
      }}
    >
      <option value="" disabled>
        {name}
      </option>
      {(c.options ?? []).map((o) => (
        <option key={o.value} value={o.value} title={o.description}>
          {o.emoji?.name ? `${o.emoji.name} ` : ""}
          {o.label}
        </option>
      ))}
    </select>
  );
}

/** The labels of the picked values, in the menu's order. */
function labels(c: Component, picked: string[]): string {
  return (c.options ?? [])
    .filter((o) => picked.includes(o.value))
    .map((o) => o.label)
    .join(", ");
}

/** Several values: a combobox that opens a list of choices, sent with "Choose". */
function MultiSelect({ c, m }: { c: Component; m: Message }) {
  const [openList, setOpen] = useState(false);
  const [picked, setPicked] = useState<string[]>(() => defaults(c));
  const name = c.placeholder || "Select";
  const min = c.min_values ?? 1;
  const max = c.max_values ?? 1;
  const toggle = (v: string) =>
    setPicked(picked.includes(v) ? picked.filter((x) => x !== v) : picked.length < max ? [...picked, v] : picked);
  const listId = `ms-${m.id}-${c.custom_id}`;
  const box = useRef<HTMLButtonElement>(null);
  return (
    <div class="multi">
      <button
        ref={box}
        type="button"
        role="combobox"
        aria-label={name}
        aria-expanded={openList}
        aria-controls={listId}
        disabled={!!c.disabled}
        onClick={() => setOpen(!openList)}
      >
        {picked.length ? labels(c, picked) : name}
      </button>
      {openList && (
        // "Choose" beside the listbox, not in it: a listbox holds options only.
        <>
          <div id={listId} role="listbox" aria-label={name} aria-multiselectable="true">
            {(c.options ?? []).map((o) => (
              <div
                key={o.value}
                role="option"
                tabIndex={0}
                aria-selected={picked.includes(o.value)}
                onClick={() => toggle(o.value)}
                onKeyDown={(e) => {
                  if (e.key !== " ") return;
                  e.preventDefault(); // Space picks; it does not scroll the log as well
                  toggle(o.value);
                }}
              >
                {o.label}
              </div>
            ))}
          </div>
          <button
            type="button"
            disabled={picked.length < min}
            onClick={() => {
              setOpen(false);
              // Choose leaves with the list: focus back on the menu, which the answer may take away in turn.
              if (box.current) {
                box.current.focus();
                keepInMessage(box.current, m);
              }
              if (c.custom_id) void clickComponent(m, c.custom_id, picked);
              setPicked(defaults(c));
            }}
          >
            Choose
          </button>
        </>
      )}
    </div>
  );
}
