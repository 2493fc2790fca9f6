/**
 * Every request/answer example in docs/people-api.md and docs/harness.md is run here,
 * in order, against BASIC_WORLD; answers must have the documented status and shape
 * (same keys, same types; a documented null may be anything). No example can drift.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { call, makeParley, seedBasic } from "../helpers";
import type { Parley } from "../../src/app";

interface Example {
  name: string | null;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  status: number;
  answer: unknown;
  line: number;
}

function parseExamples(file: string): Example[] {
  const text = readFileSync(file, "utf8");
  const blocks: { body: string; line: number; before: string }[] = [];
  const re = /```http\n([\s\S]*?)```/g;
  for (let m; (m = re.exec(text)); ) {
    const head = text.slice(0, m.index);
    blocks.push({ body: m[1], line: head.split("\n").length, before: head.split("\n").slice(-3).join("\n") });
  }
  const out: Example[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const req = blocks[i];
    if (/^HTTP\//.test(req.body)) throw new Error(`${file}:${req.line}: an answer without a request`);
    const res = blocks[i + 1];
    if (!res || !/^HTTP\//.test(res.body)) throw new Error(`${file}:${req.line}: a request without an answer`);
    i++;
    const [reqHead, ...reqRest] = req.body.split(/\n\n/);
    const [first, ...headerLines] = reqHead.split("\n");
    const [method, path] = first.split(" ");
    const headers = Object.fromEntries(headerLines.filter(Boolean).map((h) => [h.slice(0, h.indexOf(":")), h.slice(h.indexOf(":") + 1).trim()]));
    const [resHead, ...resRest] = res.body.split(/\n\n/);
    const status = Number(resHead.split(" ")[1]);
    const answerText = resRest.join("\n\n").trim();
    out.push({
      name: /<!-- as: (\w+) -->/.exec(req.before)?.[1] ?? null,
      method,
      path,
      headers,
      body: reqRest.join("\n\n").trim() || undefined,
      status,
      answer: answerText ? JSON.parse(answerText) : undefined,
      line: req.line,
    });
  }
  return out;
}

/** Shape check: same keys, same JSON types; a documented null accepts anything; arrays by their first item. */
function shapeErrors(doc: unknown, got: unknown, at = "$"): string[] {
  if (doc === null) return [];
  const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
  if (kind(doc) !== kind(got)) return [`${at}: documented ${kind(doc)}, got ${kind(got)} (${JSON.stringify(got)?.slice(0, 80)})`];
  if (Array.isArray(doc)) {
    const arr = got as unknown[];
    if (doc.length === 0) return [];
    if (arr.length === 0) return [`${at}: documented a non-empty array, got []`];
    return arr.flatMap((item, i) => shapeErrors(doc[0], item, `${at}[${i}]`));
  }
  if (kind(doc) === "object") {
    const d = doc as Record<string, unknown>;
    const g = got as Record<string, unknown>;
    const errs: string[] = [];
    for (const k of Object.keys(d)) if (!(k in g)) errs.push(`${at}.${k}: documented but missing`);
    for (const k of Object.keys(g)) if (!(k in d)) errs.push(`${at}.${k}: present but undocumented`);
    for (const k of Object.keys(d)) if (k in g) errs.push(...shapeErrors(d[k], g[k], `${at}.${k}`));
    return errs;
  }
  return [];
}

function lookup(vars: Record<string, unknown>, path: string): string {
  let v: any = vars;
  for (const k of path.split(".")) v = v?.[k];
  if (typeof v !== "string" && typeof v !== "number") throw new Error(`no value for {{${path}}}`);
  return String(v);
}

/** Runs every example of `file` in order, asserting each; answers how many ran. */
async function runDoc(file: string, vars: (p: Parley) => Record<string, unknown>): Promise<number> {
  const examples = parseExamples(file);
  expect(examples.length).toBeGreaterThan(5);
  const p = makeParley();
  const v = vars(p);
  for (const ex of examples) {
    const fill = (s: string) => s.replace(/\{\{([\w.@]+)\}\}/g, (_, k) => lookup(v, k));
    const r = await call(p, ex.method, fill(ex.path), {
      headers: Object.fromEntries(Object.entries(ex.headers).map(([k, val]) => [k, fill(val)])),
      rawBody: ex.body === undefined ? undefined : fill(ex.body),
    });
    const where = `${file.split("/").pop()}:${ex.line} ${ex.method} ${ex.path}`;
    expect({ where, status: r.status }).toEqual({ where, status: ex.status });
    expect({ where, errors: ex.answer === undefined ? (r.text === "" ? [] : ["undocumented body"]) : shapeErrors(ex.answer, r.body) }).toEqual({
      where,
      errors: [],
    });
    if (ex.name) v[ex.name] = r.body;
  }
  await p.stop();
  return examples.length;
}

/** The doc's request blocks, counted apart from the parser, so none can be skipped unseen. */
function requestBlocks(file: string): number {
  return [...readFileSync(file, "utf8").matchAll(/```http\n(?!HTTP\/)/g)].length;
}

const DOCS = join(import.meta.dir, "../../docs");

describe("documentation examples", () => {
  test("docs/people-api.md: every example runs and answers the documented shape", async () => {
    const ran = await runDoc(join(DOCS, "people-api.md"), (p) => {
      const w = seedBasic(p);
      const id = (f: string) => p.api.flakes.uuid(f)!;
      const v: Record<string, unknown> = {};
      for (const [n, u] of Object.entries(w.users)) v[n] = { token: u.token, id: id(u.id) };
      const lab = w.guilds.Lab;
      v.Lab = { id: id(lab.id), general: id(lab.channels.general), staff: id(lab.channels.staff), Mod: id(lab.roles.Mod) };
      v.EchoBot = { id: id(w.applications.EchoBot.id), bot_user_id: id(w.applications.EchoBot.bot_user_id) };
      return v;
    });
    expect(ran).toBe(requestBlocks(join(DOCS, "people-api.md")));
  });

  test("docs/harness.md: every example runs and answers the documented shape", async () => {
    const ran = await runDoc(join(DOCS, "harness.md"), (p) => {
      const w = seedBasic(p);
      const v: Record<string, unknown> = {};
      for (const [n, u] of Object.entries(w.users)) v[n] = u;
      v.Lab = { id: w.guilds.Lab.id, ...w.guilds.Lab.channels, ...w.guilds.Lab.roles };
      v.EchoBot = w.applications.EchoBot;
      return v;
    });
    expect(ran).toBe(requestBlocks(join(DOCS, "harness.md")));
  });

  test("the shape check itself catches drift", () => {
    expect(shapeErrors({ a: 1, b: "x" }, { a: 2, b: "y" })).toEqual([]);
    expect(shapeErrors({ a: 1 }, { a: "1" }).length).toBe(1);
    expect(shapeErrors({ a: 1 }, { a: 1, extra: true }).length).toBe(1);
    expect(shapeErrors([{ a: 1 }], [{ a: 1 }, {}]).length).toBe(1);
    expect(shapeErrors({ a: null }, { a: "anything" })).toEqual([]);
  });
});
