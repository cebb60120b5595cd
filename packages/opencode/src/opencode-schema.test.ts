import { txcriptErrorOf } from "@txcript/core/testing";
import { describe, expect, it } from "vitest";
import { opencodeCodec } from "./opencode-codec.js";
import { fixtureSamples } from "./test-support.js";

describe("parse", () => {
  it("maps each failure onto a code and a JSON path", () => {
    expect(txcriptErrorOf(() => opencodeCodec.parse("{", { file: "x.json" }))).toMatchObject({
      code: "INVALID_JSON",
      location: { file: "x.json" },
    });
    const cases: [string, string][] = [
      ["[]", "$"],
      ['{"messages": []}', "$.info"],
      ['{"info": {}, "messages": {}}', "$.messages"],
      ['{"info": {}, "messages": [1]}', "$.messages[0]"],
      ['{"info": {}, "messages": [{"parts": []}]}', "$.messages[0].info"],
      ['{"info": {}, "messages": [{"info": {}, "parts": [{}, "x"]}]}', "$.messages[0].parts[1]"],
    ];
    for (const [text, path] of cases)
      expect(
        txcriptErrorOf(() => opencodeCodec.parse(text)),
        text,
      ).toMatchObject({
        code: "INVALID_DOCUMENT",
        harness: "opencode",
        location: { path },
      });
  });

  it("keeps a text that does not print as OpenCode prints it, byte for byte, while unchanged", () => {
    const text = '{"info":{"id":"ses_x","time":{"created":1}},"messages":[]}';
    const native = opencodeCodec.parse(text);
    expect(opencodeCodec.serialize(native)).toBe(text);
    native.document.info.title = "changed";
    // No final newline in the source: the rewrite has none either.
    expect(opencodeCodec.serialize(native)).toBe(JSON.stringify(native.document, null, 2));
  });

  it("refuses toCommon for a session without an id", () => {
    expect(
      txcriptErrorOf(() =>
        opencodeCodec.toCommon(opencodeCodec.parse('{"info": {}, "messages": []}')),
      ),
    ).toMatchObject({
      code: "INVALID_DOCUMENT",
      location: { path: "$.info.id" },
    });
  });

  it("refuses a document nested deeper than it can print as TOO_LARGE naming the file", () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const text = `{"info": {"id": "ses_x", "extra": ${deep}}, "messages": []}`;
    expect(txcriptErrorOf(() => opencodeCodec.parse(text, { file: "deep.json" }))).toMatchObject({
      code: "TOO_LARGE",
      harness: "opencode",
      location: { file: "deep.json" },
    });
    // The control: the same document, shallow, parses.
    expect(opencodeCodec.parse(text.replace(deep, "[[]]")).document.info.id).toBe("ses_x");
  });
});

describe("usage", () => {
  const withTokens = (tokens: string) =>
    `{"info": {"id": "ses_x", "time": {"created": 1}}, "messages": [{"info": {"id": "msg_a", "role": "assistant", "time": {"created": 2}, "modelID": "m", "tokens": ${tokens}, "cost": 0}, "parts": [{"type": "text", "text": "hi"}]}]}`;
  const read = (tokens: string) => {
    const warnings: string[] = [];
    const transcript = opencodeCodec.toCommon(opencodeCodec.parse(withTokens(tokens)), {
      onWarning: (warning) => {
        // The message's id is a dropped field too (opencode.message-bookkeeping): not what is checked here.
        if (warning.code !== "opencode.message-bookkeeping")
          warnings.push(`${warning.code} ${warning.path}`);
      },
    });
    return { usage: transcript.messages[0]?.usage, warnings };
  };

  it("reads a token count past 2^53 − 1 as 0, with opencode.usage-count", () => {
    const { usage, warnings } = read(
      '{"input": 9007199254740993, "output": 5, "reasoning": 0, "cache": {"read": 9007199254740993, "write": 1}}',
    );
    expect(usage).toEqual({
      inputTokens: 0,
      outputTokens: 5,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 1,
    });
    expect(warnings).toEqual([
      "opencode.usage-count $.messages[0].info.tokens.input",
      "opencode.usage-count $.messages[0].info.tokens.cache.read",
    ]);
  });

  it("reads reasoning as 0 when output plus reasoning is past 2^53 − 1", () => {
    const { usage, warnings } = read(
      '{"input": 1, "output": 9007199254740000, "reasoning": 9007199254740000, "cache": {"read": 0, "write": 0}}',
    );
    expect(usage).toEqual({
      inputTokens: 1,
      outputTokens: 9007199254740000,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
    });
    expect(warnings).toEqual(["opencode.usage-count $.messages[0].info.tokens.reasoning"]);
  });

  it("reads safe counts as they are, without a warning (the control)", () => {
    const { usage, warnings } = read(
      '{"input": 3, "output": 5, "reasoning": 2, "cache": {"read": 7, "write": 1}}',
    );
    expect(usage).toEqual({
      inputTokens: 3,
      outputTokens: 7,
      reasoningOutputTokens: 2,
      cacheReadInputTokens: 7,
      cacheCreationInputTokens: 1,
    });
    expect(warnings.filter((warning) => warning.startsWith("opencode.usage-count"))).toEqual([]);
  });
});

describe("detect", () => {
  it("recognizes OpenCode's exports and nothing else", () => {
    for (const sample of fixtureSamples())
      expect(opencodeCodec.detect(sample.text), sample.name).toBe(true);
    expect(opencodeCodec.detect('{"v": 1, "id": "T-x", "messages": []}')).toBe(false);
    expect(opencodeCodec.detect('{"type":"user","sessionId":"s"}\n')).toBe(false);
    expect(opencodeCodec.detect('{"format": "txcript.common/v2", "meta": {}}')).toBe(false);
  });
});
