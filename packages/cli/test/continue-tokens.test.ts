// The token counter of `continue --budget` into Codex (context-budget.ts):
// its own walk over gpt-tokenizer's o200k_base tables must count exactly
// what the package's countTokens counts, for any text.
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import encoding, { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { o200kSliceCounter, tokenCounter } from "../src/context-budget.js";

const options = { disallowedSpecial: new Set<string>() };
const reference = (text: string) => countTokens(text, options);

const words = [
  "the",
  " of",
  "Hello",
  "world",
  "don't",
  "WE'LL",
  "src/QVvM6.ts:791",
  "tVU2e0iI/TNFqQO",
  "1234567",
  "   ",
  "\n\n",
  "\r\n",
  "\t",
  "<|endoftext|>",
  "<|im_start|>",
  "ümlaut",
  "naïve",
  "日本語のテキスト",
  "한국어",
  "😀👍🏽",
  "\u0000",
  "\ud800",
  "Ω≈ç√",
  '{"command":"rg -n if src"}',
  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
];

const texts = fc.oneof(
  fc.array(fc.constantFrom(...words), { maxLength: 60 }).map((parts) => parts.join("")),
  fc.array(fc.constantFrom(...words), { maxLength: 60 }).map((parts) => parts.join(" ")),
  fc.string({ unit: "grapheme", maxLength: 300 }),
  fc.string({ unit: "binary", maxLength: 300 }),
  fc.string({ maxLength: 400 }),
  fc.base64String({ maxLength: 400 }),
);

describe("o200kSliceCounter", () => {
  const fast = o200kSliceCounter(encoding, countTokens);

  it("counts what countTokens counts, for any text", () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(fast(text)).toBe(reference(text));
      }),
      lawParameters(3000),
    );
  });

  it("counts long runs, every ASCII and a range of other code points as countTokens does", () => {
    const ascii = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)).join("");
    const wide = Array.from({ length: 3000 }, (_, index) =>
      String.fromCodePoint(0xa0 + index * 37),
    ).join("");
    for (const text of [
      "",
      ascii,
      ascii.repeat(15),
      wide,
      "x".repeat(2000),
      "9".repeat(2000),
      " ".repeat(2000),
      "ab".repeat(1000),
      "é".repeat(1999),
    ])
      expect(fast(text)).toBe(reference(text));
  });

  it("is countTokens itself when the encoder's internals are not there", () => {
    const seen: string[] = [];
    const counter = o200kSliceCounter({}, (text, given) => {
      seen.push(text);
      expect(given.disallowedSpecial.size).toBe(0);
      return countTokens(text, given);
    });
    expect(counter("hello there")).toBe(reference("hello there"));
    expect(seen).toEqual(["hello there"]);
  });

  it("is the counter for Codex: countTokens over 2,000-character slices", async () => {
    const { count } = await tokenCounter("codex");
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...words), { maxLength: 600 }).map((parts) => parts.join(" ")),
        (text) => {
          let expected = 0;
          for (let start = 0; start < text.length; start += 2000)
            expected += reference(text.slice(start, start + 2000));
          expect(count(text)).toBe(expected);
        },
      ),
      lawParameters(200),
    );
  });

  it("counts texts sharing a first slice (a text, then its cut) each as countTokens would", async () => {
    const { count } = await tokenCounter("codex");
    const sliced = (text: string) => {
      let expected = 0;
      for (let start = 0; start < text.length; start += 2000)
        expected += reference(text.slice(start, start + 2000));
      return expected;
    };
    const piece = fc
      .array(fc.constantFrom(...words), { maxLength: 400 })
      .map((parts) => parts.join(" "));
    fc.assert(
      fc.property(piece, fc.array(piece, { minLength: 1, maxLength: 4 }), (head, tails) => {
        for (const tail of tails) {
          const text = `${head}${tail}`;
          expect(count(text)).toBe(sliced(text));
          const cut = `${text.slice(0, 2000)}\n[… cut …]\n${tail.slice(-2000)}`;
          expect(count(cut)).toBe(sliced(cut));
        }
      }),
      lawParameters(200),
    );
  });
});
