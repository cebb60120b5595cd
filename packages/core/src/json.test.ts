import { describe, expect, it } from "vitest";
import { jsonEqual, lineAndColumn, parseJson, parseJsonObject, stringifyJson } from "./json.js";
import { lawParameters, txcriptErrorOf } from "./testing/index.js";

describe("parseJson", () => {
  it("reports the line and column of a syntax error", () => {
    const error = txcriptErrorOf(() =>
      parseJson('{\n  "a": 1,\n  "b": tru\n}', { file: "x.json" }),
    );
    expect(error.code).toBe("INVALID_JSON");
    expect(error.location.file).toBe("x.json");
    expect(error.location.line).toBe(3);
  });
  it("offsets lines for JSONL callers", () => {
    expect(txcriptErrorOf(() => parseJson("{oops", { line: 40 })).location.line).toBe(40);
  });
  it("keeps __proto__ as an own data key and never touches Object.prototype", () => {
    const value = parseJson('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  it("reports hostile depth on write as TOO_LARGE", () => {
    let deep: unknown = 1;
    for (let index = 0; index < 200_000; index += 1) deep = [deep];
    expect(txcriptErrorOf(() => stringifyJson(deep)).code).toBe("TOO_LARGE");
  });
});

describe("lineAndColumn", () => {
  it("is 1-based", () => {
    expect(lineAndColumn("ab\ncd", 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn("ab\ncd", 4)).toEqual({ line: 2, column: 2 });
  });
});

describe("jsonEqual", () => {
  it("compares key order only when asked", () => {
    expect(jsonEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1, b: 2 }, { b: 2, a: 1 }, true)).toBe(false);
    expect(jsonEqual([1, { a: null }], [1, { a: null }], true)).toBe(true);
    expect(jsonEqual([1], [1, 2])).toBe(false);
  });

  it("agrees with comparing canonical texts (sorted keys; as written when ordered)", async () => {
    const fc = (await import("fast-check")).default;
    // Few keys and values, so equal and nearly equal pairs are common.
    const { value } = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.constantFrom(0, -0, 1, "a", "", null, true, false),
        fc.array(tie("value"), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom("a", "b", "c", "__proto__"), tie("value"), { maxKeys: 3 }),
      ),
    }));
    /** The same value with each object's keys put in `order`. */
    const rekeyed = (item: unknown, order: (keys: string[]) => string[]): unknown =>
      Array.isArray(item)
        ? item.map((entry) => rekeyed(entry, order))
        : typeof item === "object" && item !== null
          ? Object.fromEntries(
              order(Object.keys(item)).map((key) => [
                key,
                rekeyed((item as Record<string, unknown>)[key], order),
              ]),
            )
          : item;
    const canonical = (item: unknown) => JSON.stringify(rekeyed(item, (keys) => keys.sort()));
    const reversed = (item: unknown) => rekeyed(item, (keys) => keys.reverse());
    const pairs = fc.oneof(
      fc.tuple(value, value),
      value.map((item) => [item, reversed(item)] as const),
      value.map((item) => [item, JSON.parse(JSON.stringify(item)) as unknown] as const),
    );
    let equal = 0;
    fc.assert(
      fc.property(pairs, ([left, right]) => {
        const expected = canonical(left) === canonical(right);
        if (expected) equal++;
        expect(jsonEqual(left, right)).toBe(expected);
        expect(jsonEqual(right, left)).toBe(expected);
        expect(jsonEqual(left, right, true)).toBe(JSON.stringify(left) === JSON.stringify(right));
      }),
      { numRuns: 3000, seed: 42 },
    );
    // The control: both verdicts were reached.
    expect(equal).toBeGreaterThan(300);
    expect(equal).toBeLessThan(2700);
  });

  it("counts a key holding undefined as absent, and an array is never an object", () => {
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined }, true)).toBe(true);
    expect(jsonEqual({ a: undefined }, { b: undefined })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual({}, [])).toBe(false);
    expect(jsonEqual({ 0: "a" }, ["a"])).toBe(false);
  });
});

describe("jsonErrorOffset", () => {
  it("agrees with JSON.parse on validity for arbitrary and cut JSON", async () => {
    const fc = (await import("fast-check")).default;
    const { jsonErrorOffset } = await import("./json-error-offset.js");
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.string(), (text, at, insert) => {
        const candidates = [
          text,
          text.slice(0, at % (text.length + 1)),
          text.slice(0, at % (text.length + 1)) + insert + text.slice(at % (text.length + 1)),
        ];
        for (const candidate of candidates) {
          let valid = true;
          try {
            JSON.parse(candidate);
          } catch {
            valid = false;
          }
          expect(jsonErrorOffset(candidate) === -1).toBe(valid);
        }
      }),
      lawParameters(2000),
    );
  });
});

describe("parseJson and numbers past the double range", () => {
  it("refuses 1e400 with its JSON path instead of reading Infinity", () => {
    const error = txcriptErrorOf(() =>
      parseJson('{"a":[1,{"n":-1e400}]}', { file: "f.json", line: 3 }),
    );
    expect(error.code).toBe("INVALID_DOCUMENT");
    expect(error.location).toEqual({ file: "f.json", line: 3, path: "$.a[1].n" });
  });
  it("refuses a 400-digit integer the same way, and accepts 1e308", () => {
    expect(txcriptErrorOf(() => parseJson(`[${"9".repeat(400)}]`)).location.path).toBe("$[0]");
    expect(parseJson("[1e308, -1.7976931348623157e308]")).toEqual([1e308, -1.7976931348623157e308]);
  });
  it("walks hostile depth without overflowing", () => {
    const deep = `${"[".repeat(100_000)}1e400${"]".repeat(100_000)}`;
    expect(txcriptErrorOf(() => parseJson(deep)).code).toBe("INVALID_DOCUMENT");
  });
  it("finds one out-of-range number anywhere in a large document", () => {
    // Every place the walk reads a value from: an array item, an object's
    // last key, a `__proto__` key (an own key when JSON.parse makes it), the
    // root itself; each after 20,000 harmless values.
    const filler = Array.from({ length: 20_000 }, (_, index) => `{"i":${index},"s":"1e400"}`);
    const cases: [string, string][] = [
      [`[${filler.join(",")},1e400]`, "$[20000]"],
      [`[${filler.join(",")},{"a":1,"z":{"b":[0,-1e999]}}]`, "$[20000].z.b[1]"],
      [`{"list":[${filler.join(",")}],"__proto__":{"n":1e400}}`, "$.__proto__.n"],
    ];
    for (const [text, path] of cases) {
      const error = txcriptErrorOf(() => parseJson(text));
      expect(error.code).toBe("INVALID_DOCUMENT");
      expect(error.location.path).toBe(path);
    }
    expect(txcriptErrorOf(() => parseJson("-1e400")).location.path).toBe("$");
    // Control: the same documents in range parse, strings like "1e400" included.
    expect(parseJson(`[${filler.join(",")},1e300]`)).toHaveLength(20_001);
  });
});

describe("parseJsonObject", () => {
  it("gives an object line as its object, and undefined for anything else (no throw)", () => {
    expect(parseJsonObject('{"a":[1,{"b":null}]}')).toEqual({ a: [1, { b: null }] });
    expect(parseJsonObject('{"__proto__":{"x":1}}')).toEqual(JSON.parse('{"__proto__":{"x":1}}'));
    for (const text of ['{"a":1', "[1]", "3", "null", '"s"', "", "not json"])
      expect(parseJsonObject(text), text).toBeUndefined();
  });
});
