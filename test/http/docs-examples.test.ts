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
  kind: "http";
  name: string | null;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  status: number;
  answer: unknown;
  line: number;
}

/**
 * A live connection step (```live blocks): `> frame` is sent, `< frame` must arrive next
 * (same `op` and `type`, same shape), `> close` drops the connection.
 */
interface LiveStep {
  kind: "live";
  lines: { dir: ">" | "<"; text: string }[];
  line: number;
}

function parseExamples(file: string): (Example | LiveStep)[] {
  const text = readFileSync(file, "utf8");
  const blocks: { lang: string; body: string; line: number; before: string }[] = [];
  const re = /```(http|live)\n([\s\S]*?)```/g;
  for (let m; (m = re.exec(text)); ) {
    const head = text.slice(0, m.index);
    blocks.push({ lang: m[1], body: m[2], line: head.split("\n").length, before: head.split("\n").slice(-3).join("\n") });
  }
  const out: (Example | LiveStep)[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const req = blocks[i];
    if (req.lang === "live") {
      const lines = req.body.split("\n").filter((l) => l.trim());
      out.push({ kind: "live", line: req.line, lines: lines.map((l) => ({ dir: l[0] as ">" | "<", text: l.slice(1).trim() })) });
      continue;
    }
    if (/^HTTP\//.test(req.body)) throw new Error(`${file}:${req.line}: an answer without a request`);
    const res = blocks[i + 1];
    if (!res || !/^HTTP\//.test(res.body)) throw new Error(`${file}:${req.line}: a request without an answer`);
    i++;
    const [reqHead, ...reqRest] = req.body.split(/\n\n/);
    const [first, ...headerLines] = reqHead.split("\n");
    const [method, path] = first.split(" ");
    const headers = Object.fromEntries(
      headerLines.filter(Boolean).map((h) => [h.slice(0, h.indexOf(":")), h.slice(h.indexOf(":") + 1).trim()]),
    );
    const [resHead, ...resRest] = res.body.split(/\n\n/);
    const status = Number(resHead.split(" ")[1]);
    const answerText = resRest.join("\n\n").trim();
    out.push({
      kind: "http",
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

/** Runs every example of `file` in order, asserting each; answers how many HTTP examples ran. */
async function runDoc(file: string, vars: (p: Parley) => Record<string, unknown>): Promise<number> {
  const examples = parseExamples(file);
  expect(examples.length).toBeGreaterThan(5);
  const p = makeParley();
  const v = vars(p);
  const live = examples.some((e) => e.kind === "live") ? new LiveSocket(p) : null;
  let ran = 0;
  for (const ex of examples) {
    const fill = (s: string) => s.replace(/\{\{([\w.@]+)\}\}/g, (_, k) => lookup(v, k));
    if (ex.kind === "live") {
      await live!.run(ex, fill, v);
      continue;
    }
    ran++;
    const r = await call(p, ex.method, fill(ex.path), {
      headers: Object.fromEntries(Object.entries(ex.headers).map(([k, val]) => [k, fill(val)])),
      rawBody: ex.body === undefined ? undefined : fill(ex.body),
    });
    const where = `${file.split("/").pop()}:${ex.line} ${ex.method} ${ex.path}`;
    expect({ where, status: r.status }).toEqual({ where, status: ex.status });
    expect({
      where,
      errors: ex.answer === undefined ? (r.text === "" ? [] : ["undocumented body"]) : shapeErrors(ex.answer, r.body),
    }).toEqual({
      where,
      errors: [],
    });
    if (ex.name) v[ex.name] = r.body;
  }
  await p.stop();
  return ran;
}

/** One live connection of the doc's examples, on a real socket; `live.stream` and `live.seq` track it. */
class LiveSocket {
  private ws: WebSocket | null = null;
  private frames: string[] = [];
  private waiter: (() => void) | null = null;

  constructor(private readonly p: Parley) {
    p.listen();
  }

  private async open(): Promise<WebSocket> {
    const ws = new WebSocket(`${this.p.api.urls.base.replace(/^http/, "ws")}/api/client/v1/live`);
    ws.onmessage = (e) => {
      this.frames.push(String(e.data));
      this.waiter?.();
    };
    await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));
    return ws;
  }

  private async next(where: string): Promise<any> {
    const deadline = Date.now() + 5000;
    while (!this.frames.length) {
      if (Date.now() > deadline) throw new Error(`${where}: no frame arrived`);
      await new Promise<void>((r) => {
        this.waiter = r;
        setTimeout(r, 50);
      });
    }
    return JSON.parse(this.frames.shift()!);
  }

  async run(step: LiveStep, fill: (s: string) => string, v: Record<string, unknown>): Promise<void> {
    for (const l of step.lines) {
      const where = `people-api.md:${step.line} ${l.dir} ${l.text.slice(0, 60)}`;
      if (l.dir === ">" && l.text === "close") {
        await this.close();
        continue;
      }
      if (l.dir === ">") {
        this.ws ??= await this.open();
        this.ws.send(fill(l.text));
        continue;
      }
      const doc = JSON.parse(l.text);
      const got = await this.next(where);
      expect({ where, op: got.op, type: got.type }).toEqual({ where, op: doc.op, type: doc.type });
      expect({ where, errors: shapeErrors(doc, got) }).toEqual({ where, errors: [] });
      if (got.op === "ready") v.live = { stream: got.stream, seq: got.seq };
      if (got.op === "event") (v.live as { seq: number }).seq = got.seq;
    }
  }

  /** Drop the connection, and wait until the server has seen it go. */
  private async close(): Promise<void> {
    const ws = this.ws!;
    const before = this.p.live.connections();
    const closed = new Promise((r) => (ws.onclose = r));
    ws.close();
    await closed;
    for (let i = 0; i < 100 && this.p.live.connections() >= before; i++) await Bun.sleep(10);
    this.ws = null;
  }
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
      const echo = w.applications.EchoBot;
      v.EchoBot = { id: id(echo.id), bot_user_id: id(echo.bot_user_id), flake: echo.id, token: echo.token };
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
