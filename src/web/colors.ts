/**
 * Role colours as text. A server picks its roles' colours freely, and the client shows a
 * member's name in the colour of their highest coloured role; a dark red or blue on the
 * dark page could not be read. So a colour is shown as chosen when it reads well enough
 * (WCAG's 4.5:1 for text), and otherwise mixed toward white just until it does.
 */

/**
 * The lightest surface a coloured name is drawn on: a message that mentions the reader
 * (its yellow tint over the channel's background, styles.css `.message.mentioned`). A
 * colour that reads there reads on every darker panel too.
 */
const LIGHTEST_BACKGROUND = [0x44, 0x40, 0x37] as const;
const TEXT_CONTRAST = 4.5;

type Rgb = readonly [number, number, number];

/** Relative luminance (WCAG 2.1). */
function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const hex = (c: Rgb) => `#${c.map((x) => x.toString(16).padStart(2, "0")).join("")}`;

/** A role colour (0xRRGGBB) as a CSS colour that reads as text on every panel of the page. */
export function readableRoleColor(color: number): string {
  const rgb: Rgb = [(color >> 16) & 0xff, (color >> 8) & 0xff, color & 0xff];
  for (let step = 0; step <= 100; step++) {
    const t = step / 100;
    const mixed = rgb.map((c) => Math.round(c + (255 - c) * t)) as unknown as Rgb;
    if (contrast(mixed, LIGHTEST_BACKGROUND) >= TEXT_CONTRAST) return hex(mixed);
  }
  return "#ffffff";
}
