import * as core from "@txcript/core";
import * as arbitraries from "@txcript/core/arbitraries";
import * as testing from "@txcript/core/testing";
import { describe, expect, it } from "vitest";

describe("public exports", () => {
  it("@txcript/core", () => {
    expect(Object.keys(core).sort()).toMatchInlineSnapshot(`
      [
        "Block",
        "CommonDocument",
        "ImageBlock",
        "JsonValue",
        "Message",
        "Meta",
        "RawToolSchema",
        "Role",
        "StopReason",
        "TextBlock",
        "ThinkingBlock",
        "Timestamp",
        "ToolResultBlock",
        "ToolSchema",
        "ToolUseBlock",
        "Transcript",
        "TxcriptError",
        "Usage",
        "WarningCollector",
        "assertInside",
        "canonicalStopReasons",
        "commonCodec",
        "commonFormat",
        "commonJsonSchema",
        "convert",
        "errorCodes",
        "fromCanonical",
        "ioError",
        "isJsonObject",
        "isUuid",
        "jsonEqual",
        "jsonPath",
        "lineAndColumn",
        "ownValue",
        "parseJson",
        "quote",
        "readHead",
        "readTextFile",
        "resolveRange",
        "stringifyJson",
        "textPieces",
        "toCanonical",
        "toText",
        "toTranscript",
        "toolInputSchemas",
        "toolName",
        "typedToolNames",
        "uuidV5",
        "uuidV5In",
        "validateTranscript",
        "warn",
        "writeFileAtomic",
      ]
    `);
  });
  it("@txcript/core/arbitraries", () => {
    expect(Object.keys(arbitraries).sort()).toMatchInlineSnapshot(`
      [
        "arbitraryFromSchema",
        "imageBlockArbitrary",
        "jsonArbitrary",
        "jsonObjectArbitrary",
        "metaArbitrary",
        "rawToolArbitrary",
        "stopReasonArbitrary",
        "textArbitrary",
        "thinkingBlockArbitrary",
        "timestampArbitrary",
        "toolArbitrary",
        "toolResultContentArbitrary",
        "transcriptArbitrary",
        "typedToolArbitrary",
        "usageArbitrary",
      ]
    `);
  });
  it("@txcript/core/testing", () => {
    expect(Object.keys(testing).sort()).toMatchInlineSnapshot(`
      [
        "describeCodecLaws",
        "describeCrossHarnessLaws",
        "lawParameters",
        "lawRuns",
        "signature",
        "throughText",
      ]
    `);
  });
});
