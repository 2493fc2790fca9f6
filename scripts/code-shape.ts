/**
 * The shape rules of src (docs/ARCHITECTURE.md), checked by test/unit/architecture.test.ts
 * and runnable alone (`bun scripts/code-shape.ts`): the layers' import rules, the core's
 * one face, no SQL or store outside the core, no import cycles; run alone, also the sizes
 * of files and functions (scripts/code-size.ts, checked with the linter in test/static).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "..");
const SRC = join(ROOT, "src");

/** The surfaces: none imports another. */
export const SURFACES = ["botapi", "gateway", "clientapi", "harness", "cli", "web", "ops"];

export interface SrcFile {
  path: string; // relative to the repository, e.g. src/core/users.ts
  text: string;
  imports: string[]; // resolved relative paths of imported src files
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = resolve(dirname(from), spec);
  for (const cand of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]) {
    try {
      if (statSync(cand).isFile()) return relative(ROOT, cand);
    } catch {}
  }
  return null;
}

export function srcFiles(): SrcFile[] {
  return walk(SRC).map((abs) => {
    const text = readFileSync(abs, "utf8");
    const imports: string[] = [];
    const re =
      /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|(?:^|\n)\s*import\s+["']([^"']+)["']/g;
    for (const m of text.matchAll(re)) {
      const spec = m[1] ?? m[2] ?? m[3];
      const r = resolveImport(abs, spec);
      // Only files of src have a layer (package.json, read for the version, has none).
      if (r && r.startsWith("src/")) imports.push(r);
    }
    return { path: relative(ROOT, abs), text, imports };
  });
}

/** The folder under src a file lives in ("core", "botapi", ...; "" for src/app.ts). */
export function layerOf(path: string): string {
  const parts = path.split("/");
  return parts.length > 2 ? parts[1] : "";
}

export interface Violation {
  rule: string;
  where: string;
  detail: string;
}

/** Import rules: arrows point down (docs/ARCHITECTURE.md). */
export function importViolations(files: SrcFile[]): Violation[] {
  const out: Violation[] = [];
  const allowed: Record<string, string[]> = {
    store: ["store"],
    config: ["config"],
    // The core checks encrypted DMs' shape with src/e2e's format rules (never their meaning).
    core: ["core", "store", "e2e", "text"],
    wire: ["wire", "core", "config", "text"],
    // The world document (seed, export, import): production code the harness uses like everyone else.
    world: ["world", "wire", "core", "config"],
    // The web client speaks only the people's API over HTTP and its live connection (whose
    // shapes it takes from the contract, as types only: below), and encrypts DMs with the
    // one scheme every client shares.
    web: ["web", "e2e", "contract", "text"],
    // The people's API contract: TypeBox schemas and their types, nothing of Parley.
    contract: ["contract"],
    // The end-to-end scheme runs in browsers and in Bun alike: WebCrypto, nothing of Parley.
    e2e: ["e2e"],
    // The grammars and pure rules the server and the web client share (mentions, search, notifications).
    text: ["text"],
  };
  for (const f of files) {
    const from = layerOf(f.path);
    for (const to of f.imports.map(layerOf)) {
      if (to === from) continue;
      if (allowed[from] && !allowed[from].includes(to))
        out.push({ rule: "layer", where: f.path, detail: `${from} imports ${to || "src/app.ts"}` });
      if (SURFACES.includes(from) && SURFACES.includes(to)) out.push({ rule: "surface", where: f.path, detail: `${from} imports ${to}` });
      if (from === "web" && to === "contract" && !typeOnly(f.text))
        out.push({ rule: "layer", where: f.path, detail: "web imports the contract as types only (no schema code in the browser bundle)" });
      if (to === "store" && from !== "core" && f.path !== "src/app.ts")
        out.push({ rule: "store", where: f.path, detail: "only the core (and the composition root) may use the store" });
      if (to === "" && f.path !== "src/main.ts" && !["cli", "testing"].includes(from))
        out.push({ rule: "root", where: f.path, detail: "only the CLI and the test SDK may import the composition root" });
    }
  }
  return out;
}

// ---- the core's face: surfaces see src/core/index.ts and nothing deeper ----

const FACE = "src/core/index.ts";

/** `face`: above the core and the store, nothing imports a file of src/core but its face. */
export function faceViolations(files: SrcFile[]): Violation[] {
  const out: Violation[] = [];
  for (const f of files) {
    const layer = layerOf(f.path);
    if (layer === "core" || layer === "store") continue;
    for (const i of f.imports)
      if (i.startsWith("src/core/") && i !== FACE) out.push({ rule: "face", where: f.path, detail: `imports ${i}: import from ${FACE}` });
  }
  return out;
}

/** Every name a file exports, following `export *` and `export type *` into the files they name. */
function exportedNames(byPath: Map<string, SrcFile>, path: string, seen = new Set<string>()): string[] {
  const f = byPath.get(path);
  if (!f || seen.has(path)) return [];
  seen.add(path);
  const out: string[] = [];
  const text = f.text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
  for (const m of text.matchAll(
    /export\s+(?:declare\s+)?(?:abstract\s+)?(?:interface|type|class|function|const|let|enum)\s+([A-Za-z_$][\w$]*)/g,
  ))
    out.push(m[1]);
  for (const m of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g))
    for (const part of m[1].split(",")) {
      const name = part
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)
        .pop()!
        .trim();
      if (name) out.push(name);
    }
  for (const m of text.matchAll(/export\s+(?:type\s+)?\*\s+from\s+["']([^"']+)["']/g)) {
    const spec = m[1].replace(/^\.\.?\//, "").replace(/\.tsx?$/, "");
    const target = f.imports.find((i) => [spec, `${spec}/index`].some((x) => i.replace(/\.tsx?$/, "").endsWith(x)));
    if (target) out.push(...exportedNames(byPath, target, seen));
  }
  return out;
}

/** `rows`: the face exports no row type (a name ending in Row): rows hold hashes and never leave the core. */
export function rowExports(files: SrcFile[]): Violation[] {
  const byPath = new Map(files.map((f) => [f.path, f]));
  return exportedNames(byPath, FACE)
    .filter((n) => /Row$/.test(n))
    .map((n) => ({ rule: "rows", where: FACE, detail: `exports ${n}` }));
}

/** `narrow`: a surface's context takes the slice of the core it calls (`Pick<Core, ...>`), never the whole Core. */
export function narrowViolations(files: SrcFile[]): Violation[] {
  return files
    .filter((f) => SURFACES.includes(layerOf(f.path)) && f.path.endsWith("/context.ts") && /\bcore\s*:\s*Core\b/.test(f.text))
    .map((f) => ({ rule: "narrow", where: f.path, detail: "takes the whole Core: declare core: Pick<Core, ...> of what it calls" }));
}

/** The three face rules together. */
export function faceRuleViolations(files: SrcFile[]): Violation[] {
  return [...faceViolations(files), ...rowExports(files), ...narrowViolations(files)];
}

/** Every import or re-export of the contract in a file is `import type` / `export type`. */
function typeOnly(text: string): boolean {
  const contract = /(?:^|\n)\s*(import|export)\s+(type\s+)?[^;]*?from\s+["'][./]*contract["']/g;
  for (const m of text.matchAll(contract)) if (!m[2]) return false;
  return true;
}

const SQL =
  /["'`]\s*(SELECT\s[\s\S]*?\sFROM|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX|VIEW)|PRAGMA\s)/i;

/** SQL and store handles outside core and store. */
export function sqlViolations(files: SrcFile[]): Violation[] {
  const out: Violation[] = [];
  for (const f of files) {
    const layer = layerOf(f.path);
    if (layer === "core" || layer === "store") continue;
    if (SQL.test(f.text)) out.push({ rule: "sql", where: f.path, detail: "SQL text outside src/core and src/store" });
    if (/\.db\.(query|exec|prepare|run)\(|\bstore\.(db|write|batched)\b/.test(f.text) && f.path !== "src/app.ts")
      out.push({ rule: "sql", where: f.path, detail: "reaches into the store" });
  }
  return out;
}

/**
 * The pages: an effect that moves focus, opens a modal dialog or listens for keys is a
 * layout effect, run in the commit that shows its change. A passive effect runs a frame
 * later, and on a busy machine a person's next key (or a test's) lands in that gap: in a
 * box about to be reset, on a menu whose Escape is not heard yet.
 */
export function pageViolations(files: SrcFile[]): Violation[] {
  const out: Violation[] = [];
  for (const f of files) {
    if (!f.path.startsWith("src/web/")) continue;
    for (const m of f.text.matchAll(/\buseEffect\(/g)) {
      const body = effectBody(f.text, m.index + m[0].length);
      if (/\.focus\(|\.showModal\(|addEventListener\(\s*["'](keydown|keyup)["']|requestAnimationFrame\(/.test(body)) {
        const line = f.text.slice(0, m.index).split("\n").length;
        out.push({ rule: "page", where: `${f.path}:${line}`, detail: "focus, a modal or keys in useEffect: make it useLayoutEffect" });
      }
    }
  }
  return out;
}

/** The text of a call's arguments, from just after its "(" to the matching ")". */
function effectBody(text: string, from: number): string {
  let depth = 1;
  let i = from;
  for (; i < text.length && depth > 0; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")") depth--;
  }
  return text.slice(from, i);
}

/** Import cycles (strongly connected components of more than one file, or a self-import). */
export function cycles(files: SrcFile[]): string[][] {
  const graph = new Map(files.map((f) => [f.path, f.imports.filter((i) => i !== f.path || true)]));
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

if (import.meta.main) {
  const { sizeViolations } = await import("./code-size");
  const files = srcFiles();
  const problems = [...importViolations(files), ...sqlViolations(files), ...pageViolations(files), ...sizeViolations(files)];
  for (const c of cycles(files)) problems.push({ rule: "cycle", where: c[0], detail: c.join(" -> ") });
  problems.push(...faceRuleViolations(files));
  for (const p of problems) console.log(`${p.rule.padEnd(14)} ${p.where}  ${p.detail}`);
  console.log(problems.length ? `${problems.length} problem(s)` : "src keeps its shape");
  process.exit(problems.length ? 1 : 0);
}
