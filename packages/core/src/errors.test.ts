import { describe, expect, it } from "vitest";
import { errorCodes, jsonPath, TxcriptError } from "./errors.js";

describe("TxcriptError", () => {
  it("is recognized across duplicate installs by its marker, not by class identity", () => {
    const foreign = Object.assign(new Error("x"), {
      [Symbol.for("txcript.error")]: true,
      code: "IO",
    });
    expect(TxcriptError.isInstance(foreign)).toBe(true);
    expect(TxcriptError.isInstance(new Error("x"))).toBe(false);
    expect(TxcriptError.isInstance(null)).toBe(false);
    expect(TxcriptError.isInstance(new TxcriptError("IO", "x"))).toBe(true);
  });
  it("formats file, line, column, path and hint on one line", () => {
    const error = new TxcriptError("INVALID_DOCUMENT", "expected a string", {
      harness: "amp",
      location: { file: "t.json", line: 3, column: 7, path: "$.messages[0].role" },
      hint: "got 42",
    });
    expect(error.format()).toBe("t.json:3:7: expected a string at $.messages[0].role (got 42)");
    expect(error.format()).not.toContain("\n");
  });
  it("keeps the cause and adds a file without losing what it knew", () => {
    const cause = new Error("root");
    const error = new TxcriptError("IO", "cannot read", {
      cause,
      location: { line: 2 },
    }).withLocation({ file: "f" });
    expect(error.location).toEqual({ file: "f", line: 2 });
    expect(error.code).toBe("IO");
  });
  it("has a closed set of codes", () => {
    expect([...errorCodes].sort()).toEqual([
      "AMBIGUOUS",
      "CONFLICT",
      "INVALID_DOCUMENT",
      "INVALID_JSON",
      "IO",
      "MISMATCH",
      "NOT_FOUND",
      "REFUSED",
      "TOO_LARGE",
      "UNKNOWN_FORMAT",
      "UNSAFE_PATH",
      "UNSUPPORTED",
      "USAGE",
    ]);
  });
});

describe("jsonPath", () => {
  it("writes identifiers with dots and everything else bracketed", () => {
    expect(jsonPath(["messages", 3, "content", "a-b", "__proto__"])).toBe(
      '$.messages[3].content["a-b"].__proto__',
    );
    expect(jsonPath([])).toBe("$");
  });
});
