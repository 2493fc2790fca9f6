/**
 * Files and functions of src stay readable (docs/ARCHITECTURE.md): no file over 400 lines
 * and no function over 80 without a comment saying why. The rule lives in
 * scripts/code-size.ts; it parses every file, so it runs with the linter, not in
 * `npm run test:fast`.
 */
import { describe, expect, test } from "bun:test";
import { srcFiles, type SrcFile } from "../../scripts/code-shape";
import { sizeViolations } from "../../scripts/code-size";

const fake = (path: string, text: string): SrcFile => ({ path, text, imports: [] });

describe("sizes", () => {
  // Parses every file of src: about 2 s of CPU alone, more when the machine is busy.
  test("no file over 400 lines and no function over 80 without a comment saying why", () => {
    expect(sizeViolations(srcFiles())).toEqual([]);
  }, 30_000);

  test("long functions and files, unless a comment says why", () => {
    const body = Array.from({ length: 90 }, (_, i) => `  x += ${i};`).join("\n");
    const v = sizeViolations([
      fake("src/core/long.ts", `export function long() {\n  let x = 0;\n${body}\n  return x;\n}\n`),
      fake(
        "src/core/ok.ts",
        `/** Longer than 80 lines because it is a table. */\nexport function table() {\n  let x = 0;\n${body}\n  return x;\n}\n`,
      ),
      fake("src/core/big.ts", "const a = 1;\n".repeat(450)),
    ]);
    expect(v.map((x) => `${x.rule}:${x.where.split(":")[0]}`)).toEqual(["function-size:src/core/long.ts", "file-size:src/core/big.ts"]);
  });
});
