/**
 * The shape of src (docs/ARCHITECTURE.md), kept by the suite: surfaces never import each
 * other, arrows point down, only the core touches the store or writes SQL, no import
 * cycles, and files and functions stay readable. The rules live in scripts/code-shape.ts
 * (also runnable alone); this file also proves each rule catches what it should.
 */
import { describe, expect, test } from "bun:test";
import { cycles, importViolations, sizeViolations, sqlViolations, srcFiles, type SrcFile } from "../../scripts/code-shape";

const files = srcFiles();
const fake = (path: string, text: string, imports: string[] = []): SrcFile => ({ path, text, imports });

describe("src keeps its shape", () => {
  test("the layers: surfaces never import each other, wire and core import no surface", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(importViolations(files)).toEqual([]);
  });

  test("only src/core and src/store hold SQL or reach into the store", () => {
    expect(sqlViolations(files)).toEqual([]);
  });

  test("no import cycles", () => {
    expect(cycles(files)).toEqual([]);
  });

  test("no file over 400 lines and no function over 80 without a comment saying why", () => {
    expect(sizeViolations(files)).toEqual([]);
  });
});

describe("the rules catch what they should", () => {
  test("a surface importing another, the wire layer importing a surface, a surface using the store", () => {
    const v = importViolations([
      fake("src/gateway/x.ts", "", ["src/botapi/http.ts"]),
      fake("src/wire/x.ts", "", ["src/gateway/index.ts"]),
      fake("src/harness/x.ts", "", ["src/store/db.ts"]),
      fake("src/clientapi/x.ts", "", ["src/app.ts"]),
      fake("src/core/x.ts", "", ["src/wire/snowflakes.ts"]),
    ]).map((x) => `${x.rule}:${x.where}`);
    expect(v).toEqual(["surface:src/gateway/x.ts", "layer:src/wire/x.ts", "store:src/harness/x.ts", "root:src/clientapi/x.ts", "layer:src/core/x.ts"]);
  });

  test("the contract: the web takes it as types only, and it imports nothing of Parley", () => {
    const v = importViolations([
      fake("src/web/ok.ts", 'import type { Message } from "../contract";\nexport type { Guild } from "../contract";', ["src/contract/index.ts"]),
      fake("src/web/values.ts", 'import { Message } from "../contract";', ["src/contract/index.ts"]),
      fake("src/contract/x.ts", "", ["src/core/errors.ts"]),
    ]).map((x) => `${x.rule}:${x.where}`);
    expect(v).toEqual(["layer:src/web/values.ts", "layer:src/contract/x.ts"]);
  });

  test("SQL text or a store handle outside the core", () => {
    const v = sqlViolations([
      fake("src/botapi/a.ts", 'db.query("SELECT id FROM users WHERE x = ?")'),
      fake("src/harness/b.ts", "p.store.write(() => 1)"),
      fake("src/core/c.ts", 'this.db.query("DELETE FROM users")'),
      fake("src/clientapi/d.ts", "// selects from the list; update the view"),
    ]);
    expect(v.map((x) => x.where)).toEqual(["src/botapi/a.ts", "src/harness/b.ts"]);
  });

  test("a cycle of two files and a file importing itself", () => {
    const found = cycles([
      fake("src/a.ts", "", ["src/b.ts"]),
      fake("src/b.ts", "", ["src/a.ts"]),
      fake("src/c.ts", "", ["src/c.ts"]),
      fake("src/d.ts", "", ["src/a.ts"]),
    ]);
    expect(found).toEqual([["src/a.ts", "src/b.ts"], ["src/c.ts"]]);
  });

  test("long functions and files, unless a comment says why", () => {
    const body = Array.from({ length: 90 }, (_, i) => `  x += ${i};`).join("\n");
    const v = sizeViolations([
      fake("src/core/long.ts", `export function long() {\n  let x = 0;\n${body}\n  return x;\n}\n`),
      fake("src/core/ok.ts", `/** Longer than 80 lines because it is a table. */\nexport function table() {\n  let x = 0;\n${body}\n  return x;\n}\n`),
      fake("src/core/big.ts", "const a = 1;\n".repeat(450)),
    ]);
    expect(v.map((x) => `${x.rule}:${x.where.split(":")[0]}`)).toEqual(["function-size:src/core/long.ts", "file-size:src/core/big.ts"]);
  });
});
