import { describe, expect, test } from "bun:test";
import { validateMessagePayload, MAX_PAYLOAD_BYTES } from "../../src/botapi/schemas/message";
import { DomainError } from "../../src/core/errors";
import { errorToStatusBody } from "../../src/wire/errors";

const s = (n: number) => "x".repeat(n);
/** A well formed https URL of exactly n characters. */
const link = (n: number) => `https://e.com/${s(n - 14)}`;
/** No snowflake names anything here: mentions stay as written. */
const NO_IDS = { uuid: () => null };

/** The 50035 path a payload is refused with, or null when accepted. */
function refusal(body: unknown): string | null {
  try {
    validateMessagePayload(body, NO_IDS);
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    const { status, body: b } = errorToStatusBody(e);
    expect(status).toBe(400);
    expect(b.code).toBe(50035);
    return (e as DomainError).issues[0].path;
  }
}

const button = (extra: Record<string, unknown> = {}) => ({ type: 2, style: 1, custom_id: "b", label: "B", ...extra });
const row = (...components: unknown[]) => ({ type: 1, components });
const select = (n: number, extra: Record<string, unknown> = {}) => ({
  type: 3,
  custom_id: "s",
  options: Array.from({ length: n }, (_, i) => ({ label: `l${i}`, value: `v${i}` })),
  ...extra,
});

// [name, body at the bound, body one past, expected path]
const limits: [string, unknown, unknown, string][] = [
  ["content", { content: s(2000) }, { content: s(2001) }, "content"],
  ["embeds count", { embeds: Array(10).fill({ title: "t" }) }, { embeds: Array(11).fill({ title: "t" }) }, "embeds"],
  ["title", { embeds: [{ title: s(256) }] }, { embeds: [{ title: s(257) }] }, "embeds[0].title"],
  ["description", { embeds: [{ description: s(4096) }] }, { embeds: [{ description: s(4097) }] }, "embeds[0].description"],
  ["url", { embeds: [{ title: "t", url: link(2048) }] }, { embeds: [{ title: "t", url: link(2049) }] }, "embeds[0].url"],
  ["color", { embeds: [{ title: "t", color: 0xffffff }] }, { embeds: [{ title: "t", color: 0x1000000 }] }, "embeds[0].color"],
  [
    "fields count",
    { embeds: [{ fields: Array(25).fill({ name: "n", value: "v" }) }] },
    { embeds: [{ fields: Array(26).fill({ name: "n", value: "v" }) }] },
    "embeds[0].fields",
  ],
  [
    "field name",
    {
      embeds: [
        {
          fields: [
            { name: "a", value: "b" },
            { name: s(256), value: "v" },
          ],
        },
      ],
    },
    {
      embeds: [
        {
          fields: [
            { name: "a", value: "b" },
            { name: s(257), value: "v" },
          ],
        },
      ],
    },
    "embeds[0].fields[1].name",
  ],
  [
    "field value",
    { embeds: [{ fields: [0, 1, 2, 3].map((i) => ({ name: "n", value: i === 3 ? s(1024) : "v" })) }] },
    { embeds: [{ fields: [0, 1, 2, 3].map((i) => ({ name: "n", value: i === 3 ? s(1025) : "v" })) }] },
    "embeds[0].fields[3].value",
  ],
  ["footer", { embeds: [{ footer: { text: s(2048) } }] }, { embeds: [{ footer: { text: s(2049) } }] }, "embeds[0].footer.text"],
  ["author", { embeds: [{ author: { name: s(256) } }] }, { embeds: [{ author: { name: s(257) } }] }, "embeds[0].author.name"],
  ["image url", { embeds: [{ image: { url: link(2048) } }] }, { embeds: [{ image: { url: link(2049) } }] }, "embeds[0].image.url"],
  [
    "6000 across embeds",
    { embeds: [{ description: s(4096) }, { description: s(1904) }] },
    { embeds: [{ description: s(4096) }, { description: s(1905) }] },
    "embeds",
  ],
  [
    "rows",
    { components: Array.from({ length: 5 }, (_, i) => row(button({ custom_id: `r${i}` }))) },
    { components: Array.from({ length: 6 }, (_, i) => row(button({ custom_id: `r${i}` }))) },
    "components",
  ],
  [
    "buttons per row",
    { components: [row(...[0, 1, 2, 3, 4].map((i) => button({ custom_id: `b${i}` })))] },
    { components: [row(...[0, 1, 2, 3, 4, 5].map((i) => button({ custom_id: `b${i}` })))] },
    "components[0].components",
  ],
  [
    "custom_id",
    { components: [row(button({ custom_id: s(100) }))] },
    { components: [row(button({ custom_id: s(101) }))] },
    "components[0].components[0].custom_id",
  ],
  [
    "label",
    { components: [row(button({ label: s(80) }))] },
    { components: [row(button({ label: s(81) }))] },
    "components[0].components[0].label",
  ],
  ["select options", { components: [row(select(25))] }, { components: [row(select(26))] }, "components[0].components[0].options"],
  [
    "placeholder",
    { components: [row(select(1, { placeholder: s(150) }))] },
    { components: [row(select(1, { placeholder: s(151) }))] },
    "components[0].components[0].placeholder",
  ],
  [
    "option label",
    { components: [row(select(1, { options: [{ label: s(100), value: "v" }] }))] },
    { components: [row(select(1, { options: [{ label: s(101), value: "v" }] }))] },
    "components[0].components[0].options[0].label",
  ],
  [
    "option value",
    { components: [row(select(1, { options: [{ label: "l", value: s(100) }] }))] },
    { components: [row(select(1, { options: [{ label: "l", value: s(101) }] }))] },
    "components[0].components[0].options[0].value",
  ],
  [
    "option description",
    { components: [row(select(1, { options: [{ label: "l", value: "v", description: s(100) }] }))] },
    { components: [row(select(1, { options: [{ label: "l", value: "v", description: s(101) }] }))] },
    "components[0].components[0].options[0].description",
  ],
  [
    "max_values",
    { components: [row(select(3, { max_values: 3 }))] },
    { components: [row(select(3, { max_values: 4 }))] },
    "components[0].components[0].max_values",
  ],
  [
    "min_values",
    { components: [row(select(3, { min_values: 3, max_values: 3 }))] },
    { components: [row(select(3, { min_values: 4, max_values: 3 }))] },
    "components[0].components[0].min_values",
  ],
  ["nonce", { content: "x", nonce: s(25) }, { content: "x", nonce: s(26) }, "nonce"],
];

describe("message payload limits: at the bound accepted, one past refused with the exact path", () => {
  for (const [name, atBound, past, path] of limits) {
    test(name, () => {
      expect(refusal(atBound)).toBeNull();
      expect(refusal(past)).toBe(path);
    });
  }

  test("the whole payload is at most 32 KB", () => {
    // Embeds stay under their own limits; many fields of short values plus content pad the bytes.
    const pad = (n: number) => ({ content: "x", padding: s(n) });
    const overhead = JSON.stringify(pad(0)).length;
    expect(refusal(pad(MAX_PAYLOAD_BYTES - overhead))).toBeNull();
    expect(refusal(pad(MAX_PAYLOAD_BYTES - overhead + 1))).toBe("");
  });
});

describe("message payload rules", () => {
  test("an empty message is refused; content, an embed or a component each suffice", () => {
    for (const empty of [{}, { content: "" }, { content: null, embeds: [], components: [] }, undefined]) expect(refusal(empty)).toBe("");
    expect(refusal({ content: "x" })).toBeNull();
    expect(refusal({ embeds: [{ title: "t" }] })).toBeNull();
    expect(refusal({ components: [row(button())] })).toBeNull();
  });

  test("edits (partial) may omit everything", () => {
    const n = validateMessagePayload({}, NO_IDS, { partial: true });
    expect(n.has).toEqual({ content: false, embeds: false, components: false, flags: false });
    const cleared = validateMessagePayload({ embeds: [], components: [] }, NO_IDS, { partial: true });
    expect(cleared.has.embeds && cleared.has.components).toBe(true);
    expect(cleared.embeds).toEqual([]);
  });

  test("button rules of spec 4 rule 6", () => {
    expect(refusal({ components: [row({ type: 2, style: 1, label: "x" })] })).toBe("components[0].components[0].custom_id");
    expect(refusal({ components: [row(button({ style: 7 }))] })).toBe("components[0].components[0].style");
    expect(refusal({ components: [row(button({ style: 0 }))] })).toBe("components[0].components[0].style");
    expect(refusal({ components: [row({ type: 2, style: 1, custom_id: "a" })] })).toBe("components[0].components[0].label");
    expect(refusal({ components: [row({ type: 2, style: 1, custom_id: "a", emoji: { name: "🔥" } })] })).toBeNull();
    expect(refusal({ components: [row({ type: 2, style: 5, label: "go", url: "https://example.com" })] })).toBeNull();
    expect(refusal({ components: [row({ type: 2, style: 5, label: "go", url: "https://x.y", custom_id: "c" })] })).toBe(
      "components[0].components[0].custom_id",
    );
    expect(refusal({ components: [row({ type: 2, style: 5, label: "go" })] })).toBe("components[0].components[0].url");
    expect(refusal({ components: [row(button({ custom_id: "same" }), button({ custom_id: "same" }))] })).toBe(
      "components[0].components[1].custom_id",
    );
  });

  test("layout: rows only at the top, a select fills its row, unknown types refused", () => {
    expect(refusal({ components: [button()] })).toBe("components[0].type");
    expect(refusal({ components: [row()] })).toBe("components[0].components");
    expect(refusal({ components: [row(select(1), button())] })).toBe("components[0].components");
    expect(refusal({ components: [row(select(0))] })).toBe("components[0].components[0].options");
    expect(refusal({ components: [row({ type: 4, custom_id: "t" })] })).toBe("components[0].components[0].type");
  });

  test("select types 5 to 8 are kept as {type, custom_id, disabled} only", () => {
    const n = validateMessagePayload({ components: [row({ type: 6, custom_id: "r", placeholder: "p", min_values: 1 })] }, NO_IDS);
    expect(n.components).toEqual([{ type: 1, components: [{ type: 6, custom_id: "r", disabled: false }] }]);
  });

  test("embeds are normalized to rich and nulls dropped; a single legacy `embed` is accepted", () => {
    const n = validateMessagePayload({ embeds: [{ title: "t", description: null, footer: { text: "f", icon_url: null } }] }, NO_IDS);
    expect(n.embeds).toEqual([{ type: "rich", title: "t", footer: { text: "f" } }]);
    expect(validateMessagePayload({ embed: { title: "a" } }, NO_IDS).embeds).toEqual([{ type: "rich", title: "a" }]);
  });

  test("embed URLs are absolute http(s), pictures may also be attachment://; anything else is refused as the reference does", () => {
    const pic = "https://example.com/p.png";
    const ok = { title: "t", url: "https://example.com", author: { name: "a", url: "http://e.com", icon_url: pic } };
    expect(
      refusal({ embeds: [{ ...ok, footer: { text: "f", icon_url: pic }, image: { url: "attachment://a.png" }, thumbnail: { url: pic } }] }),
    ).toBeNull();
    const refused = (body: unknown) => {
      try {
        validateMessagePayload(body, NO_IDS);
        return null;
      } catch (e) {
        const issue = (e as DomainError).issues[0];
        return [issue.path, issue.code, issue.message];
      }
    };
    // The errors discord.py users meet on the reference ("In embed.image.url: Scheme "ttps" is not supported.").
    expect(refused({ embeds: [{ title: "t", url: "example.com" }] })).toEqual([
      "embeds[0].url",
      "URL_TYPE_INVALID_URL",
      "Not a well formed URL.",
    ]);
    expect(refused({ embeds: [ok, { image: { url: "ttps://e.com/x.png" } }] })).toEqual([
      "embeds[1].image.url",
      "URL_TYPE_INVALID_SCHEME",
      `Scheme "ttps" is not supported. Scheme must be one of ('http', 'https').`,
    ]);
    expect(refused({ embed: { title: "t", url: "javascript:alert(1)" } })?.[0]).toBe("embed.url");
    expect(refusal({ embeds: [{ title: "t", url: "attachment://a.png" }] })).toBe("embeds[0].url");
    expect(refusal({ embeds: [{ author: { name: "a", url: "ftp://e.com" } }] })).toBe("embeds[0].author.url");
    expect(refusal({ embeds: [{ author: { name: "a", icon_url: "data:image/png;base64,AA" } }] })).toBe("embeds[0].author.icon_url");
    expect(refusal({ embeds: [{ footer: { text: "f", icon_url: "/relative.png" } }] })).toBe("embeds[0].footer.icon_url");
    expect(refusal({ embeds: [{ thumbnail: { url: "" } }] })).toBe("embeds[0].thumbnail.url");
  });

  test("ids may arrive as JSON numbers; nonce as integer or string; service_e2e is ignored", () => {
    const n = validateMessagePayload(
      { content: "x", nonce: 12345, service_e2e: true, message_reference: { message_id: "250000000000000000", fail_if_not_exists: false } },
      NO_IDS,
    );
    expect(n.nonce).toBe("12345");
    expect(n.reference).toEqual({ messageId: "250000000000000000", channelId: null, failIfNotExists: false, type: 0 });
  });

  test("file uploads, stickers and polls are refused", () => {
    expect(refusal({ content: "x", attachments: [{ id: 0 }] })).toBe("attachments");
    expect(refusal({ content: "x", sticker_ids: ["1"] })).toBe("sticker_ids");
    expect(refusal({ content: "x", poll: { question: { text: "q" } } })).toBe("poll");
  });

  test("allowed_mentions: parse names kinds wholesale, lists name ids, absent means everything", () => {
    expect(validateMessagePayload({ content: "@everyone", allowed_mentions: { parse: ["users"] } }, NO_IDS).allowedMentions).toEqual({
      users: true,
      roles: [],
      everyone: false,
      repliedUser: false,
    });
    expect(validateMessagePayload({ content: "@everyone" }, NO_IDS).allowedMentions).toBeNull();
    expect(validateMessagePayload({ content: "x", allowed_mentions: { replied_user: true } }, NO_IDS).allowedMentions).toEqual({
      users: [],
      roles: [],
      everyone: false,
      repliedUser: true,
    });
    expect(refusal({ content: "x", allowed_mentions: { parse: ["users"], users: ["123456789012345678"] } })).toBe("allowed_mentions.users");
    expect(refusal({ content: "x", allowed_mentions: { parse: ["nobody"] } })).toBe("allowed_mentions.parse[0]");
  });
});
