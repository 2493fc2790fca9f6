/**
 * SQL text as the translator (translate.ts) works on it: tokens that keep every
 * character (string literals, quoted names and comments are single tokens, never looked
 * into), parameters numbered as SQLite numbers them, and parentheses made into groups,
 * so that a rewrite sees a call's arguments and a statement's top level.
 */
import { UntranslatableSql } from "./errors";

export type Kind = "ws" | "comment" | "str" | "qid" | "word" | "num" | "param" | "punct";
export interface Tok {
  kind: Kind;
  text: string;
}
/** A parenthesised group: its tokens without the parentheses. */
export interface Group {
  kind: "group";
  items: Node[];
}
export type Node = Tok | Group;

const OPS = ["::", "==", "!=", "<>", "<=", ">=", "||", "<<", ">>"];

export function tokenize(sql: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  const take = (kind: Kind, end: number) => {
    out.push({ kind, text: sql.slice(i, end) });
    i = end;
  };
  while (i < sql.length) {
    const c = sql[i];
    const rest = sql.slice(i, i + 2);
    if (/\s/.test(c)) take("ws", i + /^\s+/.exec(sql.slice(i))![0].length);
    else if (rest === "--") take("comment", sql.indexOf("\n", i) === -1 ? sql.length : sql.indexOf("\n", i));
    else if (rest === "/*") take("comment", sql.indexOf("*/", i + 2) === -1 ? sql.length : sql.indexOf("*/", i + 2) + 2);
    else if (c === "'" || c === '"') take(c === "'" ? "str" : "qid", quoteEnd(sql, i, c));
    else if (c === "?") take("param", i + 1 + /^\d*/.exec(sql.slice(i + 1))![0].length);
    else if ((c === "$" || c === ":" || c === "@") && /[A-Za-z0-9_]/.test(sql[i + 1] ?? "") && !(c === ":" && out.at(-1)?.text === ":"))
      take("param", i + 1 + /^[A-Za-z0-9_]+/.exec(sql.slice(i + 1))![0].length);
    else if (/[A-Za-z_]/.test(c)) take("word", i + /^[A-Za-z_][A-Za-z0-9_$]*/.exec(sql.slice(i))![0].length);
    else if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(sql[i + 1] ?? "")))
      take("num", i + /^[0-9.]+(e[+-]?[0-9]+)?/i.exec(sql.slice(i))![0].length);
    else take("punct", i + (OPS.includes(rest) ? 2 : 1));
  }
  return out;
}

/** The end of a quoted run starting at i (a doubled quote is an escaped one). */
function quoteEnd(sql: string, i: number, q: string): number {
  let j = i + 1;
  for (;;) {
    const k = sql.indexOf(q, j);
    if (k === -1) return sql.length;
    if (sql[k + 1] === q) j = k + 2;
    else return k + 1;
  }
}

/** Number the parameters as SQLite does, replacing each with its $n. */
export function numberParams(toks: Tok[]): (string | null)[] {
  const slots: (string | null)[] = [];
  const byName = new Map<string, number>();
  let max = 0;
  for (const t of toks) {
    if (t.kind !== "param") continue;
    let n: number;
    if (t.text === "?") n = ++max;
    else if (t.text[0] === "?") {
      n = Number(t.text.slice(1));
      if (!(n >= 1)) throw new UntranslatableSql(`parameter ${t.text} is not numbered from 1`);
    } else {
      // `:a` and `@a` are two parameters to SQLite: the prefix is part of the name.
      n = byName.get(t.text) ?? max + 1;
      byName.set(t.text, n);
      slots[n - 1] = t.text.slice(1);
    }
    max = Math.max(max, n);
    slots[n - 1] ??= null;
    t.text = `$${n}`;
  }
  for (let k = 0; k < max; k++) slots[k] ??= null;
  return slots;
}

export function group(toks: Tok[]): Node[] {
  const stack: Node[][] = [[]];
  for (const t of toks) {
    if (t.kind === "punct" && t.text === "(") stack.push([]);
    else if (t.kind === "punct" && t.text === ")") {
      if (stack.length === 1) throw new UntranslatableSql("unbalanced parentheses");
      const items = stack.pop()!;
      stack.at(-1)!.push({ kind: "group", items });
    } else stack.at(-1)!.push(t);
  }
  if (stack.length !== 1) throw new UntranslatableSql("unbalanced parentheses");
  return stack[0];
}

export const render = (nodes: Node[]): string => nodes.map((n) => (n.kind === "group" ? `(${render(n.items)})` : n.text)).join("");
export const isWord = (n: Node | undefined, ...words: string[]): boolean => n?.kind === "word" && words.includes(n.text.toUpperCase());
export const significant = (n: Node) => n.kind === "group" || (n.kind !== "ws" && n.kind !== "comment");
export const word = (text: string): Tok => ({ kind: "word", text });

/** The index of the next significant node after i, or -1. */
export function next(nodes: Node[], i: number): number {
  for (let j = i + 1; j < nodes.length; j++) if (significant(nodes[j])) return j;
  return -1;
}

export function prev(nodes: Node[], i: number): number {
  for (let j = i - 1; j >= 0; j--) if (significant(nodes[j])) return j;
  return -1;
}

/** A group's items split at its top-level commas. */
export function args(g: Group): Node[][] {
  const out: Node[][] = [[]];
  for (const n of g.items) {
    if (n.kind === "punct" && n.text === ",") out.push([]);
    else out.at(-1)!.push(n);
  }
  return out;
}
