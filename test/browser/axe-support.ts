/**
 * The accessibility sweep's engine: axe-core (node_modules/axe-core, never a CDN) put into
 * the page as it is and run with the WCAG 2.1 A and AA rules, at a desktop width and at a
 * phone's. A sweep collects what every state it checks breaks; `clean()` then fails with
 * each violation's rule, impact, element and axe's help text, so the failure says what
 * to fix. Axe is evaluated through the browser's debugging protocol, which the page's
 * Content-Security-Policy does not govern: the pages keep the policy they are served with.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect } from "bun:test";
import type { Page } from "playwright-core";

const AXE = readFileSync(resolve(import.meta.dir, "../../node_modules/axe-core/axe.min.js"), "utf8");

/** The rule tags a WCAG 2.1 AA conformance claim rests on. */
export const WCAG21AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

interface Found {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

export interface Sweep {
  /** Checks the page as it is now, at each width, then gives the page back its own size. */
  check(page: Page, state: string, opts?: CheckOptions): Promise<void>;
  /** Fails, listing every violation seen, unless there were none. */
  clean(): void;
}

export interface CheckOptions {
  /** Check at these widths only (default both). */
  widths?: ("desktop" | "phone")[];
  /** Rules off for this state alone; each caller says why beside it. */
  disable?: string[];
}

/** The violations of one page as it stands, as lines to read. */
async function violations(page: Page, disable: string[]): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE);
  // The page is settled first: a transition half way through reads as low contrast.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const found = (await page.evaluate(
    ([tags, off]) => {
      const rules = Object.fromEntries((off as string[]).map((r) => [r, { enabled: false }]));
      // @ts-expect-error: axe is put on the page above.
      return window.axe.run(document, { runOnly: { type: "tag", values: tags }, rules, resultTypes: ["violations"] });
    },
    [WCAG21AA, disable],
  )) as { violations: Found[]; passes: unknown[] };
  // Axe that checked nothing would pass anything: a page always passes some rule.
  expect(found.passes.length).toBeGreaterThan(0);
  return found.violations.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `${v.id} (${v.impact}) at ${JSON.stringify(n.target)}: ${v.help}${n.failureSummary ? `\n      ${n.failureSummary.replace(/\n/g, "\n      ")}` : ""}`,
    ),
  );
}

export function sweep(): Sweep {
  const problems: string[] = [];
  return {
    async check(page, state, opts = {}) {
      const widths = opts.widths ?? ["desktop", "phone"];
      const was = page.viewportSize();
      for (const w of widths) {
        const size = w === "desktop" ? DESKTOP : PHONE;
        if (page.viewportSize()?.width !== size.width) await page.setViewportSize(size);
        for (const line of await violations(page, opts.disable ?? [])) problems.push(`[${state} @ ${w}] ${line}`);
      }
      if (was && page.viewportSize()?.width !== was.width) await page.setViewportSize(was);
    },
    clean() {
      // One readable list (an equality diff would print every line twice, escaped).
      if (problems.length) throw new Error(`${problems.length} accessibility violations:\n${problems.join("\n")}`);
    },
  };
}
