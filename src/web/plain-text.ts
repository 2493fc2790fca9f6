/**
 * A message as one line of plain words, for the places too small for its Markdown (a
 * reply's quote of the original): mentions by name, a server's emoji as `:name:`, marks
 * (`**`, `~~`, backticks) dropped, and a spoiler's words kept hidden, as in the log.
 */
import { channelLabel, channelOf, guildOf, memberName } from "./state";
import { parseMessage, type Node } from "./markdown";
import { timestampText } from "./views/list/times";

export function plainText(source: string, guildId: string | null): string {
  return words(parseMessage(source), guildId).replace(/\s+/g, " ").trim();
}

function words(nodes: Node[] | string | undefined, guildId: string | null): string {
  if (typeof nodes === "string") return nodes;
  return (nodes ?? []).map((n) => word(n, guildId)).join("");
}

function word(n: Node, guildId: string | null): string {
  switch (n.type) {
    case "user":
      return `@${memberName(n.id, guildId)}`;
    case "role":
      return `@${(guildId && guildOf(guildId)?.roles.find((r) => r.id === n.id)?.name) || "unknown role"}`;
    case "channel": {
      const c = channelOf(n.id);
      return c ? channelLabel(c) : "#unknown";
    }
    case "everyone":
    case "here":
      return `@${n.type}`;
    case "spoiler":
      return "[spoiler]";
    case "emoji":
    case "customEmoji":
      return `:${String(n.name)}:`;
    case "twemoji":
      return String(n.name);
    case "timestamp": {
      const d = new Date(Number(n.timestamp) * 1000);
      return Number.isNaN(d.getTime()) ? String(n.timestamp) : timestampText(d, n.format);
    }
    case "br":
    case "newline":
      return " ";
    case "list":
      return (n.items as Node[][]).map((item) => words(item, guildId)).join(" ");
    default: {
      const inner = words(n.content, guildId);
      return isBlock(n) ? ` ${inner} ` : inner;
    }
  }
}

/** Blocks (a code block, a quote, a heading) stand apart from the words around them. */
const isBlock = (n: Node) => n.type === "codeBlock" || n.type === "blockQuote" || n.type === "heading";
