/**
 * The shape of src (docs/ARCHITECTURE.md), kept by the suite: surfaces never import each
 * other, arrows point down, only the core touches the store or writes SQL, and no import
 * cycles. The rules live in scripts/code-shape.ts (also runnable alone); this file also
 * proves each rule catches what it should. The sizes of files and functions are checked
 * with the linter (test/static/sizes.test.ts).
 */
import { describe, expect, test } from "bun:test";
import {
  cycles,
  faceRuleViolations,
  faceViolations,
  importViolations,
  narrowViolations,
  pageViolations,
  rowExports,
  sqlViolations,
  srcFiles,
  type SrcFile,
} from "../../scripts/code-shape";

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

  test("the pages move focus, open dialogs and hear keys in layout effects", () => {
    expect(pageViolations(files)).toEqual([]);
  });

  test("the core's face: only src/core/index.ts is imported above the core, it exports no row, no surface takes the whole Core", () => {
    expect(faceRuleViolations(files)).toEqual([]);
    expect(rowExports(files)).toEqual([]);
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
    expect(v).toEqual([
      "surface:src/gateway/x.ts",
      "layer:src/wire/x.ts",
      "store:src/harness/x.ts",
      "root:src/clientapi/x.ts",
      "layer:src/core/x.ts",
    ]);
  });

  test("the world document is production code: it imports neither the harness nor any surface", () => {
    const v = importViolations([
      fake("src/world/x.ts", "", ["src/harness/seed.ts"]),
      fake("src/world/y.ts", "", ["src/core/index.ts", "src/wire/validation.ts"]),
    ]);
    expect(v.map((x) => `${x.rule}:${x.where}`)).toEqual(["layer:src/world/x.ts"]);
  });

  test("the face rules: a deep core import, a row type the face exports, a surface context taking all of Core", () => {
    const face = faceViolations([
      fake("src/botapi/a.ts", "", ["src/core/index.ts"]),
      fake("src/botapi/b.ts", "", ["src/core/errors.ts"]),
      fake("src/core/c.ts", "", ["src/core/errors.ts"]),
      fake("src/store/d.ts", "", []),
      // The wire layer sits above the core: it keeps the face too.
      fake("src/wire/e.ts", "", ["src/core/clock.ts"]),
      fake("src/wire/f.ts", "", ["src/core/index.ts"]),
    ]);
    expect(face.map((v) => `${v.rule}:${v.where}`)).toEqual(["face:src/botapi/b.ts", "face:src/wire/e.ts"]);
    const rows = rowExports([
      fake("src/core/index.ts", 'export type * from "./models";\nexport { Users, type Session } from "./users";', [
        "src/core/models.ts",
        "src/core/users.ts",
      ]),
      fake("src/core/models.ts", "export interface User {}\nexport interface UserRow {}", []),
      fake("src/core/users.ts", "export class Users {}", []),
    ]);
    expect(rows.map((v) => v.detail)).toEqual(["exports UserRow"]);
    const narrow = narrowViolations([
      fake("src/botapi/context.ts", "export interface BotApi {\n  core: Core;\n}"),
      fake("src/gateway/context.ts", 'export interface GatewayContext {\n  core: Pick<Core, "clock">;\n}'),
    ]);
    expect(narrow.map((v) => v.where)).toEqual(["src/botapi/context.ts"]);
  });

  test("the contract: the web takes it as types only, and it imports nothing of Parley", () => {
    const v = importViolations([
      fake("src/web/ok.ts", 'import type { Message } from "../contract";\nexport type { Guild } from "../contract";', [
        "src/contract/index.ts",
      ]),
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

  test("focus, a modal or keys in a passive effect of the pages", () => {
    const v = pageViolations([
      fake("src/web/a.tsx", "const x = 1;\nuseEffect(() => box.current?.focus(), []);"),
      fake("src/web/b.tsx", "useEffect(() => {\n  if (d && !d.open) d.showModal();\n}, []);"),
      fake("src/web/c.tsx", 'useEffect(() => { document.addEventListener("keydown", on); return () => f(g(1)); }, [open]);'),
      fake("src/web/d.tsx", "useLayoutEffect(() => box.current?.focus(), []);\nuseEffect(() => setActive(0), [query]);"),
      fake("src/web/e.tsx", 'useEffect(() => void api("GET", "/x").then(set), []);\nconst f = () => el.focus();'),
      fake("src/core/f.ts", "useEffect(() => x.focus(), []);"),
    ]);
    expect(v.map((x) => x.where)).toEqual(["src/web/a.tsx:2", "src/web/b.tsx:1", "src/web/c.tsx:1"]);
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
});
