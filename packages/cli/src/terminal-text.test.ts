// terminalSafe: no character a terminal acts on survives, for any string; the
// rest of the text is left as it was; the JSON form parses to the same value.
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { terminalSafe, terminalSafeDeep, terminalSafeJson } from "./terminal-text.js";

/** The classes the promise names (docs/security.md), written out from their definitions. */
function isUnsafe(code: number): boolean {
  const c0 = code < 0x20 && code !== 0x0a && code !== 0x09;
  const del = code === 0x7f;
  const c1 = code >= 0x80 && code <= 0x9f;
  const bidi = (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
  return c0 || del || c1 || bidi;
}

const unsafeIn = (text: string) =>
  [...text].filter((character) => isUnsafe(character.codePointAt(0) as number));

/** Strings dense in the characters that matter: controls, escapes, bidi marks, and anything else. */
const hostile = fc
  .array(
    fc.oneof(
      fc.string({ unit: "grapheme" }),
      fc.string({ unit: "binary" }),
      fc.constantFrom(
        "\u001b]0;pwned\u0007",
        "\u001b[2J",
        "\u001b]52;c;ZXZpbA==\u0007",
        "\u009b31m",
        "\u009d8;;http://x\u009c",
        "\u202etxt.exe",
        "\u2066\u2069",
        "\r",
        "\r\n",
        "\u007f",
        "\n",
        "\t",
      ),
      fc.integer({ min: 0, max: 0x2100 }).map((code) => String.fromCodePoint(code)),
    ),
  )
  .map((parts) => parts.join(""));

describe("terminalSafe", () => {
  it("leaves no C0 (but tab and newline), DEL, C1 or bidi control", () => {
    fc.assert(
      fc.property(hostile, (text) => {
        expect(unsafeIn(terminalSafe(text))).toEqual([]);
      }),
      lawParameters(2000),
    );
  });
  it("changes nothing in a string without them (but a CRLF line end, which becomes LF)", () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const clean = [...text.replaceAll("\r\n", "\n")]
          .filter((character) => !isUnsafe(character.codePointAt(0) as number))
          .join("");
        expect(terminalSafe(clean)).toBe(clean);
      }),
      lawParameters(1000),
    );
  });
  it("shows each one as a visible mark", () => {
    expect(terminalSafe("a\u001b]0;t\u0007b")).toBe("a␛]0;t␇b");
    expect(terminalSafe("\u009b2J \u202eexe\u2069 \u007f\r x\r\ny\tz")).toBe(
      "<U+009B>2J <U+202E>exe<U+2069> ␡␍ x\ny\tz",
    );
    expect(terminalSafe("\u0000")).toBe("␀");
  });
  it("reaches every string of a value, keys too", () => {
    expect(
      terminalSafeDeep({ a: ["\u001b[1m", 3, null, { "\u202e": "\u009b" }], b: true }),
    ).toEqual({ a: ["␛[1m", 3, null, { "<U+202E>": "<U+009B>" }], b: true });
  });
});

describe("terminalSafeJson", () => {
  it("prints no control a terminal acts on, and parses to the same value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), hostile, (value, text) => {
        const document = { value, text };
        const json = terminalSafeJson(JSON.stringify(document, null, 2));
        expect(unsafeIn(json.replaceAll("\n", ""))).toEqual([]);
        expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(document)));
      }),
      lawParameters(1000),
    );
  });
});
