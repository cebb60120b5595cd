import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { codexCodec } from "./codex-codec.js";
import { isZstd, rolloutText } from "./codex-zstd.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const directory = path.join(repoRoot, "fixtures/codex");
const names = readdirSync(directory)
  .filter((name) => name.endsWith(".jsonl"))
  .sort();

describe("fixtures/codex", () => {
  it("holds a sample of every era", () => {
    expect(names).toEqual(
      expect.arrayContaining([
        "exec-legacy.jsonl",
        "bare-2025.jsonl",
        "compacted.jsonl",
        "paginated-0.171.jsonl",
      ]),
    );
  });
  for (const name of names) {
    it(`${name} converts to its .common.json, with no loss of conversation`, () => {
      const text = readFileSync(path.join(directory, name), "utf8");
      const expected = readFileSync(
        path.join(directory, name.replace(/\.jsonl$/, ".common.json")),
        "utf8",
      );
      expect(codexCodec.detect(text)).toBe(true);
      const codes: string[] = [];
      const transcript = codexCodec.toCommon(codexCodec.parse(text), {
        onWarning: (warning) => codes.push(warning.code),
      });
      // Only fields Common has no slot for, named (their counts: codex-losses.test.ts).
      const fields = [
        "codex.session-metadata",
        "codex.turn-settings",
        "codex.event-records",
        "codex.record-fields",
      ];
      expect(codes.filter((code) => !fields.includes(code))).toEqual([]);
      expect(commonCodec.serialize(commonCodec.fromCommon(transcript))).toBe(expected);
    });
  }
  it("claims the pre-2025 {session, items} document by its session's timestamp or instructions, not any {session} document", () => {
    const legacy = {
      session: {
        id: "0196f9a0-0000-7000-8000-000000000001",
        timestamp: "2025-04-01T00:00:00.000Z",
        instructions: "",
      },
      items: [],
    };
    expect(codexCodec.detect(JSON.stringify(legacy))).toBe(true);
    expect(codexCodec.detect(JSON.stringify(legacy, null, 2))).toBe(true);
    const instructionsFirst = { session: { instructions: "be brief", id: "x" }, items: [] };
    expect(codexCodec.detect(JSON.stringify(instructionsFirst))).toBe(true);
    // The control: another harness's document under a "session" key (Crush's dump) is not claimed.
    const other = { session: { id: "x", parent_session_id: null, title: "t" }, messages: [] };
    expect(codexCodec.detect(JSON.stringify(other, null, 2))).toBe(false);
  });

  it("does not claim other harnesses' files", () => {
    const root = path.join(repoRoot, "fixtures");
    let checked = 0;
    for (const harness of readdirSync(root)) {
      if (harness === "codex" || harness === "hostile") continue;
      for (const name of readdirSync(path.join(root, harness))) {
        const file = path.join(root, harness, name);
        if (!/\.(jsonl?|txt)$/.test(name)) continue;
        let text: string;
        try {
          text = readFileSync(file, "utf8");
        } catch {
          continue;
        }
        expect(codexCodec.detect(text), `${harness}/${name}`).toBe(false);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
  it("reads the zstd copy of a rollout as the same text (a zstd 1.5.4 frame, decoded by fzstd)", () => {
    const bytes = readFileSync(path.join(directory, "exec-legacy.jsonl.zst"));
    expect(isZstd(bytes)).toBe(true);
    expect(rolloutText(bytes)).toBe(
      readFileSync(path.join(directory, "exec-legacy.jsonl"), "utf8"),
    );
  });
  it("refuses a cut zstd frame with a TxcriptError", () => {
    const bytes = readFileSync(path.join(directory, "exec-legacy.jsonl.zst"));
    expect(() => rolloutText(bytes.subarray(0, bytes.length - 40), "cut.jsonl.zst")).toThrow(
      /cannot be decompressed/,
    );
  });
});
