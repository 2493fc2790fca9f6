/**
 * Files and functions of a readable size (docs/ARCHITECTURE.md): no file of src over 400
 * lines and no function over 80 without a comment next to it saying why. Apart from
 * scripts/code-shape.ts because it parses every file with the TypeScript compiler, about
 * two seconds of CPU: it runs with the formatter and the linter (test/static, `npm run
 * lint`), not in the quick loop.
 */
import ts from "typescript";
import type { SrcFile, Violation } from "./code-shape";

export const MAX_FILE_LINES = 400;
export const MAX_FUNCTION_LINES = 80;
/** A file or function may be longer when a comment next to it says why. */
const LONG_OK = /longer than \d+ lines because/i;

/** Files over MAX_FILE_LINES and functions over MAX_FUNCTION_LINES without a comment saying why. */
export function sizeViolations(files: SrcFile[]): Violation[] {
  const out: Violation[] = [];
  for (const f of files) {
    const lines = f.text.split("\n").length;
    if (lines > MAX_FILE_LINES && !LONG_OK.test(f.text.slice(0, 2000)))
      out.push({ rule: "file-size", where: f.path, detail: `${lines} lines (over ${MAX_FILE_LINES})` });
    const sf = ts.createSourceFile(
      f.path,
      f.text,
      ts.ScriptTarget.Latest,
      true,
      f.path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    );
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && "body" in node && node.body) {
        const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
        const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
        const n = end - start + 1;
        const comments = f.text.slice(Math.max(0, node.getFullStart() - 600), node.getStart(sf));
        if (n > MAX_FUNCTION_LINES && !LONG_OK.test(comments)) {
          const name = (node as ts.FunctionDeclaration).name?.getText(sf) ?? nameOf(node, sf);
          out.push({ rule: "function-size", where: `${f.path}:${start + 1}`, detail: `${name}: ${n} lines (over ${MAX_FUNCTION_LINES})` });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

function nameOf(node: ts.Node, sf: ts.SourceFile): string {
  const p = node.parent;
  if (p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.name) return p.name.getText(sf);
  return "(anonymous)";
}
