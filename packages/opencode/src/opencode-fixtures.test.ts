// Each fixture converts to its .common.json, prints back byte for byte, and
// the real OpenCode exports (read in place from ../shared) convert as
// their content says.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { commonCodec, type Transcript, type Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { opencodeCodec } from "./opencode-codec.js";
import { fixtureNames, fixturesDir, realDir, realSkipReason } from "./test-support.js";

function read(file: string): { transcript: Transcript; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const native = opencodeCodec.parse(readFileSync(file, "utf8"));
  return {
    transcript: opencodeCodec.toCommon(native, { onWarning: (warning) => warnings.push(warning) }),
    warnings,
  };
}

describe("fixtures/opencode", () => {
  it("has fixtures", () => {
    expect(fixtureNames().length).toBeGreaterThanOrEqual(2);
  });
  for (const name of fixtureNames()) {
    it(`${name} converts to its .common.json`, () => {
      const expected = commonCodec.toCommon(
        commonCodec.parse(
          readFileSync(path.join(fixturesDir, name.replace(/\.json$/, ".common.json")), "utf8"),
        ),
      );
      expect(read(path.join(fixturesDir, name)).transcript).toEqual(expected);
    });
  }

  it("names the parts Common does not model (a file reference, an agent mention)", () => {
    const { warnings } = read(path.join(fixturesDir, "compaction-context-image.json"));
    const unmodeled = warnings.filter((warning) => warning.code === "opencode.unmodeled-part");
    expect(unmodeled.map((warning) => warning.path)).toEqual([
      "$.messages[1].parts[2]",
      "$.messages[5].parts[1]",
    ]);
    expect(warnings.map((warning) => warning.code)).toContain("opencode.summary-message");
  });
});

/** The reading losses of fields with no Common slot (opencode.message-error: only where a turn failed). */
const droppedFields = [
  "opencode.provider",
  "opencode.session-metadata",
  "opencode.message-bookkeeping",
  "opencode.part-bookkeeping",
  "opencode.tool-details",
];

describe.skipIf(realSkipReason !== undefined)(
  `real OpenCode exports${realSkipReason ? ` (skipped: ${realSkipReason})` : ""}`,
  () => {
    it("1.2.20: typed read and bash calls with their results, an errored question call, signed reasoning, usage per step", () => {
      const { transcript, warnings } = read(path.join(realDir, "export-1.2.20-codectx.json"));
      // Only dropped fields, each named (their counts: opencode-losses.test.ts).
      expect(warnings.filter((warning) => !droppedFields.includes(warning.code))).toEqual([]);
      expect(transcript.meta).toEqual({
        id: "ses_311bceadeffew6rsCISdP0yrCy",
        timestamp: "2026-03-14T21:31:39.681Z",
        cwd: "/tmp/codectx/foo",
        title: "Creating React component",
        cliVersion: "1.2.20",
      });
      const calls = transcript.messages.flatMap((message) =>
        message.content.flatMap((block) =>
          block.type === "tool_use"
            ? [block.tool.name === "Raw" ? `Raw:${block.tool.toolName}` : block.tool.name]
            : [],
        ),
      );
      expect(calls).toEqual(["Read", "Read", "Bash", "Bash", "Bash", "Raw:question"]);
      const results = transcript.messages.flatMap((message) =>
        message.content.filter((block) => block.type === "tool_result"),
      );
      expect(results.map((block) => block.type === "tool_result" && block.isError)).toEqual([
        false,
        false,
        false,
        false,
        false,
        true,
      ]);
      const [, first] = transcript.messages;
      expect(first?.content[0]).toMatchObject({ type: "thinking", provider: "anthropic" });
      expect(first?.usage).toEqual({
        inputTokens: 2,
        outputTokens: 216,
        cacheReadInputTokens: 0,
        cacheCreationInputTokens: 11875,
      });
      expect(first?.stopReason).toBe("tool_use");
    });

    it("1.15.6 (Windows, MCP tools, two models): every message converts; the running call is named", () => {
      const { transcript, warnings } = read(
        path.join(realDir, "export-1.15.6-windows-mcp-Cap.json"),
      );
      expect([...new Set(warnings.map((warning) => warning.code))].sort()).toEqual(
        ["opencode.tool-status", "opencode.message-error", ...droppedFields].sort(),
      );
      expect(transcript.meta.cwd).toBe("C:\\Users\\22967\\cap");
      expect(transcript.meta.model).toBe("gpt-5.6-sol");
      const models = new Set(
        transcript.messages.flatMap((message) => (message.model ? [message.model] : [])),
      );
      expect([...models].sort()).toEqual(["glm-5.2", "gpt-5.6-sol"]);
      const aborted = transcript.messages.filter((message) => message.stopReason === "aborted");
      expect(aborted.length).toBe(3);
      const reasoning = transcript.messages
        .flatMap((message) => message.content)
        .filter((block) => block.type === "thinking" && block.encrypted !== undefined);
      expect(reasoning.length).toBeGreaterThan(0);
    });
  },
);
