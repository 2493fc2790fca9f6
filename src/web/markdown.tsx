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

type Node = { type: string; content?: Node[] | string; [k: string]: any };

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
const parse = SimpleMarkdown.parserFor(RULES as never);

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
    case "timestamp": {
      const d = new Date(Number(n.timestamp) * 1000);
      return Number.isNaN(d.getTime()) ? (
        String(n.timestamp)
      ) : (
        <time key={i} dateTime={d.toISOString()} title={timestampText(d, "F")}>
          {timestampText(d, n.format)}
        </time>
      );
    }
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
 * nor can a link in them be reached); pressed, it gives way to the words themselves,
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

export function Markdown({ source }: { source: string }) {
  if (!source) return null;
  return <>{kids(parse(source, { inline: true }) as Node[])}</>;
}
