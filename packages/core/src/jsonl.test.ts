import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  joinJsonLines,
  parseJsonObjectLine,
  parseJsonObjectLines,
  splitJsonLines,
  writtenJsonLine,
} from "./jsonl.js";
import { textLines } from "./stream-lines.js";
import { txcriptErrorOf } from "./testing/index.js";

const raw = (text: string) =>
  splitJsonLines(text, (lineText, number, last) => ({ lineText, number, last }));

describe("splitJsonLines", () => {
  it("has no lines for an empty text", () => {
    expect(raw("")).toEqual({ lines: [], finalNewline: false });
  });
  it("numbers lines from 1 and marks the last", () => {
    expect(raw('{"a":1}\n{"b":2}\n')).toEqual({
      lines: [
        { lineText: '{"a":1}', number: 1, last: false },
        { lineText: '{"b":2}', number: 2, last: true },
      ],
      finalNewline: true,
    });
  });
  it("keeps a last line without its newline, and blank lines where they stand", () => {
    expect(raw("a\n\n b").lines.map((line) => line.lineText)).toEqual(["a", "", " b"]);
    expect(raw("a\n\n b").finalNewline).toBe(false);
    expect(raw("\n").lines.map((line) => line.lineText)).toEqual([""]);
    expect(raw("a\n\n").lines.map((line) => line.lineText)).toEqual(["a", ""]);
  });
  it("leaves a carriage return on its line (CRLF text comes back as it was)", () => {
    const text = '{"a":1}\r\n{"b":2}\r\n';
    const split = splitJsonLines(text, (lineText) => ({ text: lineText }));
    expect(split.lines.map((line) => line.text)).toEqual(['{"a":1}\r', '{"b":2}\r']);
    expect(joinJsonLines(split.lines, split.finalNewline)).toBe(text);
  });
  it("joins back byte for byte, and splits as the bounded line reader does", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("\n", "\r", " ", "{", "}", "a", '"', "é"), { maxLength: 40 }),
        (characters) => {
          const text = characters.join("");
          const split = splitJsonLines(text, (lineText) => ({ text: lineText }));
          expect(joinJsonLines(split.lines, split.finalNewline)).toBe(text);
          expect(split.lines.map((line) => line.text)).toEqual([...textLines(text)]);
        },
      ),
    );
  });
});

describe("parseJsonObjectLines", () => {
  it("keeps each line's text beside its object, blank lines with no value", () => {
    const parsed = parseJsonObjectLines('{"type":"a"}\n \r\n{"type":"b"}', { harness: "h" });
    expect(parsed).toEqual({
      lines: [
        { text: '{"type":"a"}', value: { type: "a" } },
        { text: " \r" },
        { text: '{"type":"b"}', value: { type: "b" } },
      ],
      finalNewline: false,
    });
  });
  it("names the file, line and column of a line that is not JSON", () => {
    const error = txcriptErrorOf(() =>
      parseJsonObjectLines('{"type":"a"}\n\n{"type": nope}\n', { harness: "h", file: "s.jsonl" }),
    );
    expect(error.code).toBe("INVALID_JSON");
    expect(error.harness).toBe("h");
    expect(error.location).toEqual({ file: "s.jsonl", line: 3, column: 10 });
  });
  it("refuses JSON that is not an object, naming the line", () => {
    const error = txcriptErrorOf(() => parseJsonObjectLine("[1]", 7, { harness: "h" }));
    expect(error.code).toBe("INVALID_DOCUMENT");
    expect(error.message).toBe("a session line must be a JSON object");
    expect(error.location).toEqual({ line: 7 });
    expect(error.hint).toContain('"[1]"');
  });
});

describe("writtenJsonLine", () => {
  it("parses its text only when the value is asked for, once", () => {
    const line = writtenJsonLine('{"type":"a"}', "h");
    expect(line.text).toBe('{"type":"a"}');
    expect(line.value).toEqual({ type: "a" });
    expect(line.value).toBe(line.value);
    const bad = writtenJsonLine("{oops", "h");
    expect(bad.text).toBe("{oops");
    const error = txcriptErrorOf(() => bad.value);
    expect(error.code).toBe("INVALID_JSON");
    expect(error.harness).toBe("h");
  });
});
