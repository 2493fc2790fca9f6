/**
 * Every SQL text the core gives the store, found in src/core by the TypeScript parser:
 * the argument of each `.query(...)`, `.prepare(...)`, `.exec(...)`, `statement(store,
 * ...)` and `lazy(...)` call. A literal is taken as it is, and so is a template whose
 * only substitutions are a model's column list (`${USER_COLUMNS()}`, `${DEVICE_COLUMNS("d")}`:
 * core/rows.ts, filled in here); any other template is built at run time and is listed
 * apart (its forms are checked by hand).
 */
import ts from "typescript";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import * as rows from "../../src/core/rows";

/** `${X_COLUMNS()}` and `${X_COLUMNS("a")}` as the columns they stand for. */
function withColumns(sql: string): string {
  return sql.replace(/\$\{([A-Z_]+_COLUMNS)\((?:"(\w+)")?\)\}/g, (whole, name: string, alias?: string) => {
    const list = (rows as unknown as Record<string, ((alias?: string) => string) | undefined>)[name];
    return list ? list(alias) : whole;
  });
}

export const ROOT = resolve(import.meta.dir, "../..");

export interface CoreSql {
  file: string;
  line: number;
  sql: string;
  /** A template with substitutions: `sql` shows them as ${...}. */
  dynamic: boolean;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** Files behind an engine seam that only ever run on SQLite. */
const SQLITE_ONLY = new Set(["src/core/search-fts5.ts"]);

const CALLS = new Set(["query", "prepare", "exec", "statement", "lazy"]);

export function coreSql(dir = join(ROOT, "src/core")): CoreSql[] {
  const out: CoreSql[] = [];
  for (const path of walk(dir)) {
    const text = readFileSync(path, "utf8");
    const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : "";
        const arg = name === "statement" ? node.arguments[1] : node.arguments[0];
        if (CALLS.has(name) && arg) {
          const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
          const file = relative(ROOT, path);
          if (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg)) out.push({ file, line, sql: arg.text, dynamic: false });
          else if (ts.isTemplateExpression(arg)) {
            // The literal parts as the program sees them (escapes read), the substitutions as written.
            const text = arg.head.text + arg.templateSpans.map((s) => `\${${s.expression.getText(sf)}}${s.literal.text}`).join("");
            const sql = withColumns(text);
            out.push({ file, line, sql, dynamic: sql.includes("${") });
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  // Only SQL (exec() is also RegExp's). SQLite's full-text engine is SQLite's own: on
  // Postgres the search seam is core/search-pg.ts, whose statements are checked here.
  return out
    .filter((s) => !SQLITE_ONLY.has(s.file))
    .filter((s) => /^\s*(SELECT|INSERT|UPDATE|DELETE|PRAGMA|WITH|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i.test(s.sql));
}

if (import.meta.main) for (const s of coreSql()) console.log(`${s.dynamic ? "D" : " "} ${s.file}:${s.line} ${s.sql.replace(/\s+/g, " ")}`);
