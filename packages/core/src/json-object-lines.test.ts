// walkJsonObjectLines against JSON.parse: for generated objects in every
// layout JSON.stringify makes (one line, 1- and 2-space, tabs), each value
// handed out parses to the document's own, the array's elements in order,
// keys repeated as written; broken documents are refused with parseJson's
// message; strings holding brackets, braces and escaped quotes do not end a
// value. In blocks of whole lines (readFileLineBlocks), the walk hands out
// the same events, lines and refusals as line by line.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TxcriptError } from "./errors.js";
import type { Json, JsonObject } from "./json.js";
import { parseJson } from "./json.js";
import { type JsonObjectEvent, setOwnValue, walkJsonObjectLines } from "./json-object-lines.js";
import { textLines } from "./stream-lines.js";
import { lawParameters } from "./testing/parameters.js";

const options = {
  arrayKey: "items",
  harness: "test",
  notAnObject: (start: string) => new Error(`not an object: ${start.slice(0, 10)}`),
};

/** The document the events describe, built as JSON.parse builds one. */
function rebuilt(events: Iterable<JsonObjectEvent>): JsonObject {
  const document: JsonObject = {};
  let items: Json[] | undefined;
  for (const event of events) {
    if (event.kind === "array") {
      items = [];
      setOwnValue(document, "items", items);
    } else if (event.kind === "element") (items as Json[]).push(parseJson(event.text));
    else setOwnValue(document, event.key, parseJson(event.text));
  }
  return document;
}

const tricky = fc.constantFrom(
  'a "quoted" ] } [ { string',
  "back\\slash\\",
  '\\\\"',
  "",
  "é\u2028",
);
const value: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json> },
  { weight: 1, arbitrary: tricky },
);
const documentArbitrary = fc
  .tuple(
    fc.dictionary(fc.oneof(fc.string(), tricky), value, { maxKeys: 5 }),
    fc.option(fc.array(value, { maxLength: 6 }), { nil: undefined }),
  )
  .map(([rest, items]) =>
    items === undefined ? rest : { ...rest, items },
  ) as fc.Arbitrary<JsonObject>;
const layouts = [0, 1, 2, "\t"] as const;

function walk(text: string): JsonObject {
  return rebuilt(walkJsonObjectLines(textLines(text), options));
}

/** The text's lines grouped into blocks of whole lines joined by "\n", `sizes` lines at a time (cycled). */
function blocksOf(text: string, sizes: number[]): string[] {
  const lines = [...textLines(text)];
  const blocks: string[] = [];
  for (let at = 0, turn = 0; at < lines.length; turn += 1) {
    const size = Math.max(1, sizes[turn % sizes.length] ?? 1);
    blocks.push(lines.slice(at, at + size).join("\n"));
    at += size;
  }
  return blocks;
}

/** The events of a walk, or its refusal (message and location). */
function outcome(lines: Iterable<string>): unknown {
  try {
    return [...walkJsonObjectLines(lines, options)];
  } catch (error) {
    return TxcriptError.isInstance(error)
      ? { refused: error.message, location: error.location }
      : { refused: String(error) };
  }
}

describe("walkJsonObjectLines", () => {
  it("hands out what JSON.parse reads, in every layout", () => {
    fc.assert(
      fc.property(documentArbitrary, fc.constantFrom(...layouts), (document, layout) => {
        const text = JSON.stringify(document, null, layout);
        expect(JSON.stringify(walk(text))).toBe(JSON.stringify(JSON.parse(text)));
      }),
      lawParameters(),
    );
  });

  it("gives each value's nesting depth", () => {
    const depthOf = (value: Json): number =>
      value !== null && typeof value === "object"
        ? 1 + Math.max(0, ...Object.values(value).map((inner) => depthOf(inner as Json)))
        : 0;
    fc.assert(
      fc.property(documentArbitrary, fc.constantFrom(...layouts), (document, layout) => {
        const text = JSON.stringify(document, null, layout);
        for (const event of walkJsonObjectLines(textLines(text), options))
          if (event.kind !== "array")
            expect(event.depth, event.text).toBe(depthOf(JSON.parse(event.text)));
      }),
      lawParameters(),
    );
  });

  it("a repeated key keeps its first place and its last value; __proto__ is an own key", () => {
    const text = '{"a":1,"__proto__":{"x":1},"b":[2],"a":3,"items":[1],"items":[4,5]}';
    const walked = walk(text);
    expect(Object.keys(walked)).toEqual(Object.keys(JSON.parse(text)));
    expect(JSON.stringify(walked)).toBe(JSON.stringify(JSON.parse(text)));
    expect(Object.getPrototypeOf(walked)).toBe(Object.prototype);
  });

  it("the array's elements come one by one, each with its first line", () => {
    const text = JSON.stringify({ items: [{ a: [1, 2] }, "x", 3, null] }, null, 2);
    const events = [...walkJsonObjectLines(textLines(text), options)];
    expect(events.map((event) => event.kind)).toEqual([
      "array",
      "element",
      "element",
      "element",
      "element",
    ]);
    expect(events[1]).toMatchObject({ kind: "element", index: 0, line: 3 });
  });

  it("refuses broken documents with parseJson's message; a value that is not an object by the caller's error", () => {
    for (const text of [
      '{"a":1',
      '{"a" 1}',
      '{"a":1,}',
      '{"a":1} x',
      '{"items":[1 2]}',
      '{"a":"b\nc"}',
      '{"a":1 "b":2}',
      "\uFEFF{}",
      "",
    ]) {
      let whole: TxcriptError | undefined;
      try {
        parseJson(text, { harness: "test" });
      } catch (error) {
        whole = error as TxcriptError;
      }
      expect(whole, text).toBeInstanceOf(TxcriptError);
      expect(() => walk(text), text).toThrow((whole as TxcriptError).message);
    }
    expect(() => walk("[1]")).toThrow("not an object: [1]");
  });
});

describe("walkJsonObjectLines in blocks of whole lines", () => {
  const sizes = fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 4 });

  it("hands out the same events, with the same lines, as line by line", () => {
    fc.assert(
      fc.property(
        documentArbitrary,
        fc.constantFrom(...layouts),
        sizes,
        (document, layout, cut) => {
          const text = JSON.stringify(document, null, layout);
          expect(outcome(blocksOf(text, cut))).toEqual(outcome(textLines(text)));
        },
      ),
      lawParameters(),
    );
  });

  it("refuses what line by line refuses, on the same line", () => {
    const broken = [
      '{\n  "a": 1',
      '{\n  "a"\n  1\n}',
      '{\n  "a": 1,\n}',
      '{\n  "a": 1\n}\nx',
      '{\n  "items": [\n    1\n    2\n  ]\n}',
      '{\n  "a": "b\nc"\n}',
      '{\n  "items": [\n    {"x": "b\nc"}\n  ]\n}',
      '{\n  "k\ney": 1\n}',
      "\n\n[1,\n2]",
      `${" ".repeat(150)}\n${"x".repeat(120)}\n[1]`,
      "",
    ];
    for (const text of broken)
      for (const cut of [[1], [2], [3], [1000]]) {
        const lines = outcome(textLines(text));
        expect(lines, text).toHaveProperty("refused");
        expect(outcome(blocksOf(text, cut)), `${text} in blocks of ${cut}`).toEqual(lines);
      }
    // The caller's "not an object" gets the same start: whole lines, as many as make 200 characters.
    const whole = { ...options, notAnObject: (start: string) => new Error(`start:${start}`) };
    const starts = [
      `\n\n[${"1,\n".repeat(120)}1]`,
      `[${"12345678,".repeat(40)}\n1]`,
      "  42",
      `"${"s".repeat(199)}"\n`,
    ];
    const startOf = (lines: Iterable<string>): string => {
      try {
        [...walkJsonObjectLines(lines, whole)];
      } catch (error) {
        return (error as Error).message;
      }
      return "no refusal";
    };
    for (const text of starts) {
      const expected = startOf(textLines(text));
      expect(expected, text).toMatch(/^start:/);
      for (const cut of [[1], [2], [7], [1000]])
        expect(startOf(blocksOf(text, cut))).toBe(expected);
    }
    // Control: a string cut by a line break inside an element is refused, not read across it.
    expect(outcome(['{"items": [{"x": "b', 'c"}]}'])).toMatchObject({
      refused: 'not valid JSON: unexpected "\\n"',
      location: { line: 1 },
    });
  });
});

describe("strings that look like structure", () => {
  it("brackets, braces and commas inside strings do not end a value", () => {
    const text = JSON.stringify({ items: ["] , [", { "}": "{" }, 'a \\" ] quote'] }, null, 2);
    const events = [...walkJsonObjectLines(textLines(text), options)];
    expect(events.filter((event) => event.kind === "element")).toHaveLength(3);
    expect(JSON.stringify(walk(text))).toBe(JSON.stringify(JSON.parse(text)));
  });
});
