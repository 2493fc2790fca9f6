/**
 * The core's SQL, written for SQLite, as Postgres takes it. Translated once per statement
 * text (the bridge caches the answer), token by token: string literals, quoted
 * identifiers and comments are never touched.
 *
 * What changes (what has no mechanical translation has a Postgres form in dual.ts):
 * - parameters: `?`, `?NNN`, `$name`, `:name`, `@name` become `$1..$n`, numbered as
 *   SQLite numbers them (a `?` takes one more than the largest number so far; a name
 *   keeps the number of its first use), with each slot's name for binding an object;
 * - `INSERT OR IGNORE` becomes `INSERT ... ON CONFLICT DO NOTHING` (Postgres ignores
 *   only unique conflicts: SQLite's also ignores NOT NULL and CHECK failures, which the
 *   core never relies on); `OR REPLACE` has no safe translation and is refused;
 * - `a IS b` / `a IS NOT b` (b not NULL, TRUE, FALSE) become IS [NOT] DISTINCT FROM;
 * - scalar `max(a, b, ...)` / `min(...)` become GREATEST / LEAST (which skip NULLs where
 *   SQLite's answer NULL: the core passes none);
 * - an aggregate over a comparison (`max(user_id = ?)`) counts it as an integer, as
 *   SQLite's booleans are;
 * - `json_each(x) [AS] j` over a JSON array becomes `jsonb_array_elements_text` with a
 *   `value` column, so `j.value` still reads each element as text;
 * - `ifnull` is `coalesce`, `==` is `=`, `LIKE` is `ILIKE` (SQLite's LIKE ignores ASCII
 *   case), `WHERE 1` is `WHERE true`, `BEGIN IMMEDIATE|DEFERRED|EXCLUSIVE` is `BEGIN`;
 * - an unnamed result column gets SQLite's name for it, its text (`count(*)`, `1`);
 * - in an upsert's DO UPDATE, a bare column of the target table is qualified with the
 *   table's name (Postgres finds it ambiguous beside `excluded`);
 * - `PRAGMA defer_foreign_keys = ON` is `SET CONSTRAINTS ALL DEFERRED` (the Postgres
 *   schema's foreign keys are DEFERRABLE); any other PRAGMA is refused.
 * A statement with no faithful mechanical translation has its Postgres form written by
 * hand in dual.ts, which is looked up first.
 */
import { dualForms, normalize } from "./dual";
import { UntranslatableSql } from "./errors";
import {
  args,
  group,
  isWord,
  next,
  numberParams,
  prev,
  render,
  significant,
  tokenize,
  word,
  type Group,
  type Node,
  type Tok,
} from "./sql-tree";

export interface Translated {
  /** The Postgres text, with $1..$n. */
  text: string;
  /** Per parameter slot ($1 is slots[0]): the name it is bound by from an object, or null for a positional one. */
  slots: (string | null)[];
  /** What the statement does to the transaction, for the bridge's bookkeeping. */
  control: Control;
}

/** "notify": a pg_notify, which cannot fail on its own and so never makes a write wait to send it (bridge.ts). */
export type Control = "begin" | "commit" | "rollback" | "savepoint" | "release" | "rollback-to" | "notify" | null;

const COMPARISON = new Set(["=", "==", "!=", "<>", "<", ">", "<=", ">="]);
/** A bare comparison (a boolean in Postgres, an integer in SQLite): no CASE around it. */
const isComparison = (arg: Node[]) =>
  !arg.some((n) => isWord(n, "CASE")) &&
  arg.some((n) => (n.kind === "punct" && COMPARISON.has(n.text)) || isWord(n, "IS", "LIKE", "IN", "BETWEEN", "EXISTS"));

const AGGREGATES = new Set(["MAX", "MIN", "SUM", "AVG"]);
const IS_KEEP = new Set(["NULL", "TRUE", "FALSE", "UNKNOWN", "DISTINCT", "NOT"]);
const CLAUSE_END = new Set(["ORDER", "GROUP", "LIMIT", "HAVING", "UNION", "OFFSET", "WINDOW"]);

/** Rewrite one level of nodes (and, through calls, every group below it). */
function rewrite(nodes: Node[]): Node[] {
  const out: Node[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    if (n.kind === "group") {
      out.push({ kind: "group", items: rewrite(n.items) });
      continue;
    }
    const j = next(nodes, i);
    const after = j === -1 ? undefined : nodes[j];
    if (n.kind === "word" && after?.kind === "group") {
      const call = rewriteCall(n, after, nodes, j);
      if (call) {
        out.push(...call.nodes);
        i = call.end;
        continue;
      }
    }
    if (n.kind === "punct" && n.text === "==") {
      out.push({ kind: "punct", text: "=" });
      continue;
    }
    if (isWord(n, "LIKE")) {
      out.push(word("ILIKE"));
      continue;
    }
    if (isWord(n, "GLOB", "REGEXP", "MATCH")) throw new UntranslatableSql(`${n.text} has no Postgres translation here`);
    if (isWord(n, "IS")) {
      const notAt = isWord(after, "NOT") ? j : -1;
      const target = notAt === -1 ? after : nodes[next(nodes, notAt)];
      if (target && !(target.kind === "word" && IS_KEEP.has(target.text.toUpperCase()))) {
        out.push(word(notAt === -1 ? "IS NOT DISTINCT FROM" : "IS DISTINCT FROM"));
        if (notAt !== -1) i = notAt;
        continue;
      }
    }
    if (isWord(n, "WHERE") && after?.kind === "num" && (after.text === "1" || after.text === "0")) {
      const k = next(nodes, j);
      const end =
        k === -1 ||
        (nodes[k].kind === "punct" && (nodes[k] as Tok).text === ";") ||
        (nodes[k].kind === "word" && CLAUSE_END.has((nodes[k] as Tok).text.toUpperCase()));
      if (end) {
        out.push(n, ...nodes.slice(i + 1, j), word(after.text === "1" ? "true" : "false"));
        i = j;
        continue;
      }
    }
    out.push(n);
  }
  return out;
}

/** A function call `name(args)` at nodes[i-ish], its group at g: the replacement and the last node it covers, or null to leave it. */
function rewriteCall(name: Tok, g: Group, nodes: Node[], gAt: number): { nodes: Node[]; end: number } | null {
  const fn = name.text.toUpperCase();
  const a = args(g).map(rewrite);
  const call = (f: string, parts: Node[][]): Node[] => [
    word(f),
    { kind: "group", items: parts.flatMap((p, k) => (k ? [{ kind: "punct", text: "," } as Tok, ...p] : p)) },
  ];
  if ((fn === "MAX" || fn === "MIN") && a.length >= 2) return { nodes: call(fn === "MAX" ? "GREATEST" : "LEAST", a), end: gAt };
  if (AGGREGATES.has(fn) && a.length === 1 && isComparison(a[0])) {
    return { nodes: call(name.text, [[{ kind: "group", items: a[0] }, { kind: "punct", text: "::" }, word("int")]]), end: gAt };
  }
  if (fn === "IFNULL") return { nodes: call("coalesce", a), end: gAt };
  if (fn === "JSON_EACH") {
    if (a.length !== 1) throw new UntranslatableSql("json_each with a path has no translation here");
    let k = next(nodes, gAt);
    if (isWord(nodes[k], "AS")) k = next(nodes, k);
    const alias =
      k !== -1 && nodes[k].kind === "word" && !isWord(nodes[k], "WHERE", "ON", "JOIN", "LEFT", "INNER", "CROSS", "ORDER", "GROUP", "LIMIT")
        ? (nodes[k] as Tok).text
        : null;
    const fnCall = call("jsonb_array_elements_text", [[{ kind: "group", items: a[0] }, { kind: "punct", text: "::" }, word("jsonb")]]);
    return { nodes: [...fnCall, word(` AS ${alias ?? "json_each"}`), { kind: "group", items: [word("value")] }], end: alias ? k : gAt };
  }
  return null;
}

/** INSERT OR IGNORE -> INSERT ... ON CONFLICT DO NOTHING, at this level (one statement at a time). */
function insertOrIgnore(nodes: Node[]): Node[] {
  const out: Node[] = [];
  let start = 0;
  let pending = false;
  const close = () => {
    if (!pending) return;
    pending = false;
    // At the statement's end, or before its RETURNING clause.
    let at = out.length;
    while (at > start && !significant(out[at - 1])) at--;
    for (let k = start; k < at; k++) {
      if (isWord(out[k], "RETURNING")) {
        out.splice(k, 0, word("ON CONFLICT DO NOTHING "));
        return;
      }
    }
    out.splice(at, 0, word(" ON CONFLICT DO NOTHING"));
  };
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    if (n.kind === "punct" && n.text === ";") {
      close();
      out.push(n);
      start = out.length;
      continue;
    }
    if (isWord(n, "REPLACE") && prev(nodes, i) === -1)
      throw new UntranslatableSql("REPLACE INTO needs an explicit ON CONFLICT (...) DO UPDATE");
    if (isWord(n, "INSERT") && isWord(nodes[next(nodes, i)], "OR")) {
      const orAt = next(nodes, i);
      const what = nodes[next(nodes, orAt)];
      const mode = what?.kind === "word" ? what.text.toUpperCase() : "";
      if (mode === "IGNORE") pending = true;
      else if (mode !== "ABORT") throw new UntranslatableSql(`INSERT OR ${mode} needs an explicit ON CONFLICT clause`);
      out.push(n);
      i = next(nodes, orAt);
      continue;
    }
    if (pending && isWord(n, "ON") && isWord(nodes[next(nodes, i)], "CONFLICT"))
      throw new UntranslatableSql("INSERT OR IGNORE with its own ON CONFLICT clause");
    out.push(n);
  }
  close();
  return out;
}

/** Words of an expression that are not column names. */
const NOT_COLUMNS = new Set(
  "AND OR NOT IS NULL TRUE FALSE CASE WHEN THEN ELSE END IN BETWEEN LIKE ILIKE DISTINCT FROM AS CAST EXISTS SELECT WHERE EXCLUDED ESCAPE COLLATE SET DO UPDATE".split(
    " ",
  ),
);

/** Is nodes[i] a bare column name: a word that is no keyword, not part of a.b, not a function's name? */
function bareColumn(nodes: Node[], i: number): boolean {
  const n = nodes[i];
  const before = nodes[prev(nodes, i)];
  const after = nodes[next(nodes, i)];
  const dot = (x: Node | undefined) => x?.kind === "punct" && x.text === ".";
  return n.kind === "word" && !NOT_COLUMNS.has(n.text.toUpperCase()) && !dot(before) && !dot(after) && after?.kind !== "group";
}

/** Qualify the bare columns of an expression (not inside a subquery, which has tables of its own). */
function qualify(nodes: Node[], table: string): Node[] {
  return nodes.map((n, i) => {
    if (n.kind === "group") return n.items.some((x) => isWord(x, "SELECT")) ? n : { kind: "group", items: qualify(n.items, table) };
    return bareColumn(nodes, i) ? word(`${table}.${(n as Tok).text}`) : n;
  });
}

/** In `INSERT INTO t ... ON CONFLICT ... DO UPDATE SET c = expr, ...`, write t.x for each bare column x of an expr. */
function qualifyUpsert(nodes: Node[]): Node[] {
  const at = (k: number) => {
    for (let i = 0, seen = -1; i < nodes.length; i++) if (significant(nodes[i]) && ++seen === k) return i;
    return -1;
  };
  const sig = nodes.filter(significant);
  const into = sig.findIndex((n, k) => isWord(n, "INTO") && isWord(sig[k - 1], "INSERT"));
  const set = sig.findIndex((n, k) => isWord(n, "SET") && isWord(sig[k - 1], "UPDATE") && isWord(sig[k - 2], "DO"));
  if (into === -1 || set === -1 || sig[into + 1]?.kind !== "word") return nodes;
  const table = (sig[into + 1] as Tok).text;
  // The expressions: after each `c =` of the SET list, and the WHERE after it, to RETURNING.
  const out = [...nodes];
  let lhs = true;
  for (let k = set + 1; k < sig.length; k++) {
    const n = sig[k];
    if (isWord(n, "RETURNING")) break;
    if (n.kind === "punct" && n.text === ",") lhs = true;
    else if (n.kind === "punct" && n.text === "=" && lhs) lhs = false;
    else if (isWord(n, "WHERE")) lhs = false;
    else if (!lhs) {
      const i = at(k);
      out[i] = n.kind === "group" ? qualify([n], table)[0] : bareColumn(nodes, i) ? word(`${table}.${(n as Tok).text}`) : n;
    }
  }
  return out;
}

const LIST_END = new Set(["FROM", "WHERE", "GROUP", "ORDER", "LIMIT", "UNION", "EXCEPT", "INTERSECT", "HAVING", "WINDOW"]);

/** The select list's items of a SELECT at this level, as [start, end) index ranges; null when it is no SELECT. */
function selectItems(nodes: Node[]): [number, number][] | null {
  let i = nodes.findIndex(significant);
  if (!isWord(nodes[i], "SELECT")) return null;
  i = next(nodes, i);
  if (isWord(nodes[i], "DISTINCT", "ALL")) i = next(nodes, i);
  const items: [number, number][] = [];
  let start = i;
  for (; i !== -1 && i < nodes.length; i++) {
    const n = nodes[i];
    if ((n.kind === "word" && LIST_END.has(n.text.toUpperCase())) || (n.kind === "punct" && n.text === ";")) break;
    if (n.kind === "punct" && n.text === ",") {
      items.push([start, i]);
      start = i + 1;
    }
  }
  items.push([start, i === -1 ? nodes.length : i]);
  return items;
}

/**
 * SQLite names an unnamed result column by its text (`count(*)`, `1`); Postgres by its
 * function, or `?column?`. Name each such column of the top SELECT as SQLite would, from
 * the statement as written, so that rows have the same keys on both engines.
 */
function nameColumns(original: Node[], rewritten: Node[]): Node[] {
  const before = selectItems(original);
  const after = selectItems(rewritten);
  if (!before || !after || before.length !== after.length) return rewritten;
  const out = [...rewritten];
  for (let k = after.length - 1; k >= 0; k--) {
    const item = original.slice(...before[k]).filter(significant);
    const plain = item.length === 1 ? item[0].kind === "word" || (item[0].kind === "punct" && item[0].text === "*") : false;
    const qualified =
      item.length === 3 &&
      item[0].kind === "word" &&
      item[1].kind === "punct" &&
      (item[1] as Tok).text === "." &&
      (item[2].kind === "word" || (item[2] as Tok).text === "*");
    // `expr alias` names itself too: a last word after anything but an operator, and no keyword.
    const last = item.at(-1)!;
    const implicit = item.length >= 2 && last.kind === "word" && !NOT_COLUMNS.has(last.text.toUpperCase()) && item.at(-2)!.kind !== "punct";
    if (!item.length || plain || qualified || implicit || item.some((n) => isWord(n, "AS"))) continue;
    let end = after[k][1];
    while (end > after[k][0] && !significant(out[end - 1])) end--;
    out.splice(
      end,
      0,
      word(
        ` AS "${render(original.slice(...before[k]))
          .trim()
          .replace(/"/g, '""')}"`,
      ),
    );
  }
  return out;
}

function pragma(nodes: Node[]): string {
  const text = render(nodes).replace(/\s+/g, " ").trim().replace(/;$/, "").toLowerCase();
  if (/^pragma defer_foreign_keys ?= ?(on|1|true)$/.test(text)) return "SET CONSTRAINTS ALL DEFERRED";
  if (/^pragma defer_foreign_keys ?= ?(off|0|false)$/.test(text)) return "SET CONSTRAINTS ALL IMMEDIATE";
  throw new UntranslatableSql(`${text} is SQLite's own`);
}

function controlOf(nodes: Node[]): Control {
  const first = nodes.find(significant);
  const second = first ? nodes[next(nodes, nodes.indexOf(first))] : undefined;
  if (isWord(first, "BEGIN") || (isWord(first, "START") && isWord(second, "TRANSACTION"))) return "begin";
  if (isWord(first, "COMMIT", "END")) return "commit";
  if (isWord(first, "ROLLBACK")) return nodes.some((n) => isWord(n, "TO")) ? "rollback-to" : "rollback";
  if (isWord(first, "SAVEPOINT")) return "savepoint";
  if (isWord(first, "RELEASE")) return "release";
  return null;
}

/** Translate one statement (or several, for exec) of SQLite's dialect. Throws UntranslatableSql. */
export function translate(sql: string): Translated {
  const dual = dualForms.get(normalize(sql));
  if (dual) sql = dual;
  const original = group(tokenize(sql));
  const toks = tokenize(sql);
  const slots = numberParams(toks);
  let nodes = group(toks);
  const control = controlOf(nodes);
  const first = nodes.find(significant);
  if (isWord(first, "PRAGMA")) return { text: pragma(nodes), slots, control: null };
  // SQLite's locking modes: Postgres's BEGIN locks as it goes.
  if (isWord(first, "BEGIN")) {
    const b = nodes.indexOf(first!);
    const k = next(nodes, b);
    if (isWord(nodes[k], "IMMEDIATE", "DEFERRED", "EXCLUSIVE")) nodes = [...nodes.slice(0, b + 1), ...nodes.slice(k + 1)];
  }
  nodes = nameColumns(original, qualifyUpsert(insertOrIgnore(rewrite(nodes))));
  return { text: render(nodes), slots, control };
}
