import { describe, expect, test } from "bun:test";
import { parseJsonLossless } from "../../src/wire/json";

describe("lossless request JSON", () => {
  test("keeps every digit of ids sent as numbers above 2^53 (discord.py)", () => {
    const v = parseJsonLossless('{"message_reference":{"message_id":249777654213904384,"fail_if_not_exists":false},"n":5}') as any;
    expect(v.message_reference.message_id).toBe("249777654213904384");
    expect(v.n).toBe(5);
  });

  test("leaves strings, floats and small numbers alone", () => {
    const v = parseJsonLossless('{"s":"12345678901234567890","f":1.2345678901234567e3,"neg":-3,"arr":[1,2,12345678901234567]}') as any;
    expect(v.s).toBe("12345678901234567890");
    expect(v.f).toBeCloseTo(1234.5678901234567);
    expect(v.neg).toBe(-3);
    expect(v.arr).toEqual([1, 2, "12345678901234567"]);
  });

  test("handles escaped quotes inside strings", () => {
    const v = parseJsonLossless('{"a":"say \\"1234567890123456789\\" ok","b":1234567890123456789}') as any;
    expect(v.a).toBe('say "1234567890123456789" ok');
    expect(v.b).toBe("1234567890123456789");
  });

  test("throws on invalid JSON", () => {
    expect(() => parseJsonLossless("{nope")).toThrow();
  });

  test("a long integer with a leading zero stays invalid JSON rather than becoming a string id", () => {
    expect(() => parseJsonLossless('{"message_id":0249777654213904384}')).toThrow();
    expect(() => parseJsonLossless('{"message_id":-0249777654213904384}')).toThrow();
  });
});
