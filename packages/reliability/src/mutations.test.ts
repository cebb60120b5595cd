// The mutation engine does what each mutation's name says: tests of the
// test tool, over a small document and a small JSONL text.
import { describe, expect, it } from "vitest";
import { applyMutation, deepNestingDepth, hugeStringBytes } from "./mutations.js";

const document = '{\n  "a": 1,\n  "b": {\n    "c": "x"\n  }\n}\n';
const lines = '{"a":1,"b":[2,3]}\n{"c":"y"}\n';

describe("applyMutation", () => {
  it("drops a key", () => {
    const out = applyMutation(document, "json", { kind: "drop-key", pick: 0 });
    expect(JSON.parse(out)).toEqual({ b: { c: "x" } });
    expect(out.endsWith("}\n")).toBe(true);
  });
  it("changes a node's type", () => {
    const out = applyMutation(lines, "jsonl", { kind: "change-type", pick: 1, value: [] });
    expect(out).toBe('{"a":1,"b":[2,3]}\n[]\n');
  });
  it("truncates at a byte, cutting a multi-byte character into U+FFFD", () => {
    expect(applyMutation("é", "json", { kind: "truncate", at: 1 })).toBe("\uFFFD");
    expect(applyMutation(lines, "jsonl", { kind: "truncate", at: 5 })).toBe('{"a":');
  });
  it("writes a key twice, the copy last", () => {
    const out = applyMutation(lines, "jsonl", { kind: "duplicate-key", pick: 1, value: "dup" });
    expect(out.split("\n")[1]).toBe('{"c":"y","c":"dup"}');
  });
  it("inserts invalid UTF-8 as a UTF-8 reader would decode it", () => {
    const out = applyMutation("ab", "json", { kind: "invalid-utf8", at: 1, bytes: [0xff] });
    expect(out).toBe("a\uFFFDb");
  });
  it("inserts a lone surrogate", () => {
    expect(applyMutation("ab", "json", { kind: "lone-surrogate", at: 1, unit: 0xd800 })).toBe(
      "a\uD800b",
    );
  });
  it("adds a BOM and turns line ends into CRLF", () => {
    expect(applyMutation("{}", "json", { kind: "bom" })).toBe("\uFEFF{}");
    expect(applyMutation(lines, "jsonl", { kind: "crlf" })).toBe(
      '{"a":1,"b":[2,3]}\r\n{"c":"y"}\r\n',
    );
  });
  it("puts a 10 MiB string in place of a node", () => {
    const out = applyMutation(lines, "jsonl", {
      kind: "huge-string",
      pick: 1,
      bytes: hugeStringBytes,
    });
    expect(Buffer.byteLength(out)).toBeGreaterThan(hugeStringBytes);
    expect(typeof JSON.parse(out.split("\n")[1] as string)).toBe("string");
  });
  it("nests a node 100,000 deep", () => {
    const out = applyMutation(lines, "jsonl", {
      kind: "deep-nesting",
      pick: 1,
      depth: deepNestingDepth,
      open: "[",
    });
    const second = out.split("\n")[1] as string;
    expect(second.startsWith("[".repeat(deepNestingDepth))).toBe(true);
    expect(second.length).toBe(2 * deepNestingDepth + 1);
  });
  it("writes a number literal past 2^53", () => {
    const out = applyMutation(lines, "jsonl", {
      kind: "big-number",
      pick: 2,
      literal: "9007199254740993",
    });
    expect(out.split("\n")[0]).toBe('{"a":9007199254740993,"b":[2,3]}');
  });
  it("adds a __proto__ key as data, leaving Object.prototype alone", () => {
    const out = applyMutation(lines, "jsonl", {
      kind: "prototype-key",
      pick: 1,
      key: "__proto__",
      value: { polluted: "yes" },
    });
    expect(out.split("\n")[1]).toBe('{"c":"y","__proto__":{"polluted":"yes"}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
