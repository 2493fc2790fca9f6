/**
 * A role's colour as a name's colour in the web client (src/web/colors.ts): kept as the
 * server chose it when it reads at WCAG's 4.5:1 on every panel a name is drawn on, and
 * otherwise lightened only as far as it takes. The contrast is computed here on its own,
 * by WCAG 2.1's formula, not by the code under test.
 */
import { describe, expect, test } from "bun:test";
import { readableRoleColor } from "../../src/web/colors";

const rgb = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

/** Where names are drawn (styles.css): the member list, the channel, a message on hover, a message that mentions the reader. */
const PANELS = ["#2b2d31", "#313338", "#2e3035", "#444037"];

describe("a role's colour on a name", () => {
  test("a light colour is shown as chosen", () => {
    for (const c of [0xffffff, 0xf0b232, 0x9da5f7, 0x7fdfa0]) expect(readableRoleColor(c)).toBe(`#${c.toString(16).padStart(6, "0")}`);
  });

  test("a dark one is lightened until it reads at 4.5:1 on every panel, and no further", () => {
    for (const c of [0x23a559, 0xcc2200, 0x0000ff, 0x5865f2, 0x010101, 0x992d22]) {
      const shown = readableRoleColor(c);
      for (const panel of PANELS) expect({ c, panel, ok: contrast(shown, panel) >= 4.5 }).toEqual({ c, panel, ok: true });
      // Still the same hue, only lighter: every channel rises toward white, none falls.
      const [before, after] = [rgb(`#${c.toString(16).padStart(6, "0")}`), rgb(shown)];
      expect(after.every((x, i) => x >= before[i])).toBe(true);
      // One step (1%) less white would not read on the lightest panel.
      const less = after.map((x, i) => Math.round(x - (255 - before[i]) * 0.01));
      const lessHex = `#${less.map((x) => x.toString(16).padStart(2, "0")).join("")}`;
      expect(contrast(lessHex, "#444037")).toBeLessThan(4.5);
    }
  });
});
