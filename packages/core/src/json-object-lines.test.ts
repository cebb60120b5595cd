// walkJsonObjectLines against JSON.parse: for generated objects in every
// layout JSON.stringify makes (one line, 1- and 2-space, tabs), each value
// handed out parses to the document's own, the array's elements in order,
// keys repeated as written; broken documents are refused with parseJson's
// message; strings holding brackets, braces and escaped quotes do not end a
// value.
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

describe("strings that look like structure", () => {
  it("brackets, braces and commas inside strings do not end a value", () => {
    const text = JSON.stringify({ items: ["] , [", { "}": "{" }, 'a \\" ] quote'] }, null, 2);
    const events = [...walkJsonObjectLines(textLines(text), options)];
    expect(events.filter((event) => event.kind === "element")).toHaveLength(3);
    expect(JSON.stringify(walk(text))).toBe(JSON.stringify(JSON.parse(text)));
  });
});
