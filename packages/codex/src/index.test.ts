import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { HarnessRegistry } from "@txcript/core";
import { describePublicExports } from "@txcript/core/testing";
import { describe, expect, it } from "vitest";
import * as codex from "./index.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

describePublicExports("@txcript/codex", codex, [
  "CodexStore",
  "codexCodec",
  "codexHarness",
  "codexLoss",
  "codexLosses",
  "codexProgramCheck",
  "codexProject",
  "codexResumeCommand",
  "codexSessionId",
  "codexToolToCommon",
  "commonToCodexLines",
  "commonToolToCodex",
  "defaultCodexHome",
  "isZstd",
  "readRolloutFile",
  "rolloutIdOf",
  "rolloutRelativePath",
  "rolloutText",
]);

describe("@txcript/codex", () => {
  it("is one harness: codex resume -- <id>, the CODEX_HOME store, chunks that are the written text", () => {
    const registry = new HarnessRegistry([codex.codexHarness]);
    expect(registry.find("codex-cli")).toBe(codex.codexHarness);
    expect(codex.codexHarness.resumeCommand?.("019a93b9-f380-7600-98ff-940e6b99603c")).toEqual([
      "codex",
      "resume",
      "--",
      "019a93b9-f380-7600-98ff-940e6b99603c",
    ]);
    expect(codex.codexHarness.store?.({ CODEX_HOME: "/tmp/codex-home" }).root).toBe(
      "/tmp/codex-home",
    );
    const transcript = {
      meta: { id: "x", timestamp: "2026-01-01T00:00:00.000Z" },
      messages: [
        {
          role: "user" as const,
          content: [{ type: "text" as const, text: "hi" }],
          timestamp: "2026-01-01T00:00:00.000Z",
        },
      ],
    };
    const chunks = [...(codex.codexHarness.serializeChunks?.(transcript, {}) ?? [])];
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join("")).toBe(
      codex.codexCodec.serialize(codex.codexCodec.fromCommon(transcript)),
    );
  });

  it("keeps encrypted reasoning only for sessions Codex wrote", () => {
    const transcript = {
      meta: { id: "x", timestamp: "2026-01-01T00:00:00.000Z" },
      messages: [
        {
          role: "user" as const,
          content: [{ type: "text" as const, text: "hi" }],
          timestamp: "2026-01-01T00:00:00.000Z",
        },
        {
          role: "assistant" as const,
          content: [
            {
              type: "thinking" as const,
              text: "plan",
              encrypted: "gAAAA-elsewhere",
              provider: "openai",
            },
          ],
          timestamp: "2026-01-01T00:00:01.000Z",
        },
      ],
    };
    const write = (from: string) => {
      const codes: string[] = [];
      const options = {
        ...codex.codexHarness.writeOptions?.({ from }),
        onWarning: (warning: { code: string }) => codes.push(warning.code),
      };
      return {
        text: codex.codexCodec.serialize(codex.codexCodec.fromCommon(transcript, options)),
        codes,
      };
    };
    const fromAmp = write("amp");
    expect(fromAmp.text).not.toContain("gAAAA-elsewhere");
    expect(fromAmp.text).toContain('"summary":[{"type":"summary_text","text":"plan"}]');
    expect(fromAmp.codes).toContain("codex.foreign-reasoning");
    const fromCodex = write("codex");
    expect(fromCodex.text).toContain('"encrypted_content":"gAAAA-elsewhere"');
    expect(fromCodex.codes).not.toContain("codex.foreign-reasoning");
  });

  it("names every loss codex.*, each documented in the format doc", () => {
    const doc = readFileSync(path.join(repoRoot, "docs/formats/codex.md"), "utf8");
    for (const loss of codex.codexLosses) {
      expect(loss.code).toMatch(/^codex\.[a-z-]+$/);
      expect(doc).toContain(`\`${loss.code}\``);
    }
    expect(new Set(codex.codexLosses.map((loss) => loss.code)).size).toBe(codex.codexLosses.length);
  });
});
