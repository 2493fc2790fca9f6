/**
 * Message Markdown in the reference dialect, parsed by discord-markdown-parser and
 * rendered from its syntax tree to Preact elements. No HTML string is ever built, so
 * text can only ever be text (Preact escapes it); links are made only from http(s) URLs
 * that parse, so `javascript:` and friends stay plain text. Mentions name people, roles
 * and channels by Parley's internal ids (`<@uuid>`), hence the three rules added here.
 */
import { rulesExtended, SimpleMarkdown } from "discord-markdown-parser";
import type { ComponentChildren } from "preact";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { channelOf, channelLabel, guildOf, memberName, route } from "./state";
import { safeUrl } from "./urls";
import { CustomEmoji } from "./views/files/Emoji";
import { timestampText } from "./views/list/times";

export type Node = { type: string; content?: Node[] | string; [k: string]: any };

const UUID = "([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})";
const order = SimpleMarkdown.defaultRules.strong.order;
const mentionRule = (re: RegExp, type: string) => ({
  order,
  match: (s: string) => re.exec(s),
  parse: (c: string[]) => ({ type, id: c[1] }),
});

const RULES = {
  ...rulesExtended,
  uuidUser: mentionRule(new RegExp(`^<@!?${UUID}>`), "user"),
  uuidRole: mentionRule(new RegExp(`^<@&${UUID}>`), "role"),
  uuidChannel: mentionRule(new RegExp(`^<#${UUID}>`), "channel"),
  // A server's own emoji, by internal id (views/files/Emoji.tsx).
  uuidEmoji: {
    order,
    match: (s: string) => new RegExp(`^<(a?):(\\w{2,32}):${UUID}>`).exec(s),
    parse: (c: string[]) => ({ type: "customEmoji", animated: c[1] === "a", name: c[2], id: c[3] }),
  },
};
// Masked links ([text](url)) as in bot messages and embeds; people's links become links either way.
const parse = SimpleMarkdown.parserFor({ ...RULES, list: listRule() } as never);

/** A line that starts a list item: its indent, its bullet (`-`, `*` or `1.`) and its text. */
const ITEM = /^( *)([*-]|\d{1,9}\.) +(.*)$/;
/** Lines that are list items, each at the start of a line, nested ones indented. */
const LIST = /^(?: *(?:[*-]|\d{1,9}\.) +[^\n]*(?:\n|$))+/;

/**
 * Lists as the reference renders them in messages: `- ` or `* ` bullets, `1. ` numbers
 * (the first number starts the count), items indented under another nested in it. The
 * parser's own list rule wants block parsing, which a message is not.
 */
function listRule() {
  return {
    order: SimpleMarkdown.defaultRules.list.order,
    match: (source: string, state: { prevCapture?: string[] | null }) => {
      const prev = state.prevCapture?.[0];
      const found = prev === undefined || prev.endsWith("\n") ? LIST.exec(source) : null;
      return found && oneKind(found);
    },
    parse: (capture: string[], inline: (s: string, state: object) => Node[], state: object) =>
      listNode(capture[0].replace(/\n$/, "").split("\n"), inline, state),
  };
}

/** The capture cut where an item at the list's own indent changes from bullets to numbers or back: a new list. */
function oneKind(found: RegExpExecArray): RegExpExecArray {
  const lines = found[0].split(/(?<=\n)/);
  const head = ITEM.exec(lines[0].replace(/\n$/, ""))!;
  const kind = (m: RegExpExecArray) => m[2].endsWith(".");
  let end = 0;
  for (const line of lines) {
    const m = ITEM.exec(line.replace(/\n$/, ""))!;
    if (m[1].length <= head[1].length && kind(m) !== kind(head)) break;
    end += line.length;
  }
  const cut = [found[0].slice(0, end)] as unknown as RegExpExecArray;
  cut.index = found.index;
  cut.input = found.input;
  return cut;
}

function listNode(lines: string[], inline: (s: string, state: object) => Node[], state: object): Node {
  const indent = Math.min(...lines.map((l) => ITEM.exec(l)?.[1].length ?? 0));
  const first = ITEM.exec(lines[0])!;
  const ordered = first[2].endsWith(".");
  const items: { text: string; nested: string[] }[] = [];
  for (const line of lines) {
    const m = ITEM.exec(line)!;
    if (m[1].length > indent && items.length) items[items.length - 1].nested.push(line);
    else items.push({ text: m[3], nested: [] });
  }
  return {
    type: "list",
    ordered,
    start: ordered ? Number.parseInt(first[2], 10) : undefined,
    items: items.map((i) => [
      ...inline(i.text, { ...state, inline: true }),
      ...(i.nested.length ? [listNode(i.nested, inline, state)] : []),
    ]),
  };
}

type Wrap = "strong" | "em" | "u" | "del" | "blockquote" | "small";
const WRAP: Record<string, Wrap> = {
  strong: "strong",
  em: "em",
  underline: "u",
  strikethrough: "del",
  blockQuote: "blockquote",
  subtext: "small",
};

function kids(c: Node["content"]): ComponentChildren {
  return typeof c === "string" ? c : c?.map(node);
}

function roleName(id: string): string {
  return guildOf(route.value.guild)?.roles.find((r) => r.id === id)?.name ?? "unknown role";
}

function mention(n: Node, i: number): ComponentChildren {
  if (n.type === "user")
    return (
      <span key={i} class="mention">
        @{memberName(n.id, route.value.guild === "@me" ? null : route.value.guild)}
      </span>
    );
  if (n.type === "role")
    return (
      <span key={i} class="mention">
        @{roleName(n.id)}
      </span>
    );
  const c = channelOf(n.id);
  return (
    <span key={i} class="mention">
      {c ? channelLabel(c) : "#unknown"}
    </span>
  );
}

function list(n: Node, i: number): ComponentChildren {
  const items = (n.items as Node[][]).map((item, k) => <li key={k}>{item.map(node)}</li>);
  return n.ordered ? (
    <ol key={i} start={n.start}>
      {items}
    </ol>
  ) : (
    <ul key={i}>{items}</ul>
  );
}

/** `<t:…:F>`: the time in the reader's own zone and words, the full date on hover. */
function timestamp(n: Node, i: number): ComponentChildren {
  const d = new Date(Number(n.timestamp) * 1000);
  return Number.isNaN(d.getTime()) ? (
    String(n.timestamp)
  ) : (
    <time key={i} dateTime={d.toISOString()} title={timestampText(d, "F")}>
      {timestampText(d, n.format)}
    </time>
  );
}

function node(n: Node, i: number): ComponentChildren {
  const Tag = WRAP[n.type];
  if (Tag) return <Tag key={i}>{kids(n.content)}</Tag>;
  switch (n.type) {
    case "text":
    case "escape":
    case "emoticon":
      return typeof n.content === "string" ? n.content : kids(n.content);
    case "inlineCode":
      return <code key={i}>{String(n.content)}</code>;
    case "codeBlock":
      return (
        <pre key={i}>
          <code data-lang={n.lang || undefined}>{String(n.content)}</code>
        </pre>
      );
    case "heading": {
      const H = (["h3", "h4", "h5"] as const)[Math.min(3, Math.max(1, Number(n.level))) - 1];
      return <H key={i}>{kids(n.content)}</H>;
    }
    case "list":
      return list(n, i);
    case "br":
    case "newline":
      return <br key={i} />;
    case "spoiler":
      return <Spoiler key={i}>{kids(n.content)}</Spoiler>;
    case "url":
    case "autolink":
    case "link": {
      const href = safeUrl(n.target);
      return href ? (
        <a key={i} href={href} target="_blank" rel="noopener noreferrer nofollow">
          {kids(n.content)}
        </a>
      ) : (
        <span key={i}>{kids(n.content)}</span>
      );
    }
    case "user":
    case "role":
    case "channel":
      return mention(n, i);
    case "everyone":
    case "here":
      return (
        <span key={i} class="mention">
          @{n.type}
        </span>
      );
    case "timestamp":
      return timestamp(n, i);
    case "emoji":
      return (
        <span key={i} class="emoji">
          :{String(n.name)}:
        </span>
      );
    case "customEmoji":
      return <CustomEmoji key={i} id={n.id} name={n.name} animated={n.animated} />;
    case "twemoji":
      return String(n.name);
    default:
      // Anything else: its text, never markup.
      return typeof n.content === "string" ? n.content : kids(n.content);
  }
}

/**
 * A button "Spoiler" over words hidden from sight and from screen readers alike (inert:
 * nor can a link in them be reached; styles.css keeps their room but not their text); pressed, it gives way to the words themselves,
 * read as text and focused where the button was, so the keyboard does not lose its place.
 */
function Spoiler({ children }: { children: ComponentChildren }) {
  const [open, setOpen] = useState(false);
  const shown = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    if (open) shown.current?.focus();
  }, [open]);
  if (open)
    return (
      <span class="spoiler open" tabIndex={-1} ref={shown}>
        {children}
      </span>
    );
  return (
    <button type="button" class="spoiler" aria-label="Spoiler" onClick={() => setOpen(true)}>
      <span inert>{children}</span>
    </button>
  );
}

/** A message's syntax tree, as the log renders it (plain-text.ts reads it too). */
export function parseMessage(source: string): Node[] {
  return parse(source, { inline: true }) as Node[];
}

/**
 * `everyone`: whether the message's @everyone and @here reach anyone (its
 * `mention_everyone`); when they do not (the author may not mention everyone), they show
 * as the plain words they are, as the reference shows them, not as a mention.
 */
export function Markdown({ source, everyone = true }: { source: string; everyone?: boolean }) {
  if (!source) return null;
  const tree = parseMessage(source);
  return <>{kids(everyone ? tree : asWords(tree))}</>;
}

/** The tree with its @everyone and @here as text. */
function asWords(nodes: Node[]): Node[] {
  return nodes.map((n) => {
    if (n.type === "everyone" || n.type === "here") return { type: "text", content: `@${n.type}` };
    if (Array.isArray(n.items)) return { ...n, items: (n.items as Node[][]).map(asWords) };
    return Array.isArray(n.content) ? { ...n, content: asWords(n.content) } : n;
  });
}
