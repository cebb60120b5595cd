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
