import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Transcript, Warning } from "@txcript/core";
import { txcriptErrorOf } from "@txcript/core/testing";
import { describe, expect, it } from "vitest";
import { piCodec } from "./pi-codec.js";
import { piLosses } from "./pi-losses.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const realDirectory = path.resolve(repoRoot, "../shared/real/pi");
const fixtures = path.join(repoRoot, "fixtures/pi");

function read(text: string): { transcript: Transcript; warnings: Map<string, number> } {
  const warnings = new Map<string, number>();
  const onWarning = (warning: Warning) =>
    warnings.set(warning.code, (warnings.get(warning.code) ?? 0) + warning.count);
  return { transcript: piCodec.toCommon(piCodec.parse(text), { onWarning }), warnings };
}

/** Tool call ids and result ids of a session, counted from its JSON lines alone. */
function rawToolIds(text: string) {
  const calls: string[] = [];
  const results: string[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const message = JSON.parse(line).message;
    if (message?.role === "assistant")
      for (const block of message.content) if (block.type === "toolCall") calls.push(block.id);
    if (message?.role === "toolResult") results.push(message.toolCallId);
  }
  return { calls, results };
}

function blocks(transcript: Transcript) {
  return transcript.messages.flatMap((message) => message.content);
}

const realSamples = [
  { file: "v1-before-compaction-pi-mono.jsonl", calls: 454, results: 448, compactions: 2 },
  {
    file: "v3-openclaw-76cc5ab5-0425-4038-b41f-0af9f313d594.jsonl",
    calls: 34,
    results: 33,
    compactions: 3,
  },
  {
    file: "2026-03-18T00-14-13-969Z_a5cd40eb-3081-4252-b0a0-00079cf37752.jsonl",
    calls: 0,
    results: 0,
    compactions: 0,
  },
];

describe.skipIf(!existsSync(realDirectory))(
  `real pi sessions${existsSync(realDirectory) ? "" : ` (skipped: ${realDirectory} is absent)`}`,
  () => {
    for (const sample of realSamples)
      it(`${sample.file} keeps every tool call, result and compaction`, () => {
        const text = readFileSync(path.join(realDirectory, sample.file), "utf8");
        const { transcript } = read(text);
        const raw = rawToolIds(text);
        expect(raw.calls).toHaveLength(sample.calls);
        expect(raw.results).toHaveLength(sample.results);
        const all = blocks(transcript);
        expect(all.flatMap((block) => (block.type === "tool_use" ? [block.id] : []))).toEqual(
          raw.calls,
        );
        expect(
          all.flatMap((block) => (block.type === "tool_result" ? [block.toolUseId] : [])),
        ).toEqual(raw.results);
        const compactions = all.filter((block) => block.type === "compaction");
        expect(compactions).toHaveLength(sample.compactions);
        // Each keeps the messages pi sends after its summary, copies of messages that precede it.
        for (const compaction of compactions) {
          expect(compaction.history?.length).toBeGreaterThan(0);
          const at = transcript.messages.findIndex((message) =>
            message.content.includes(compaction),
          );
          const before = transcript.messages.slice(0, at);
          expect(before.slice(before.length - (compaction.history?.length ?? 0))).toEqual(
            compaction.history,
          );
        }
      });

    it("reads the v1 session's tools as canonical ones and its shell runs as injected context", () => {
      const text = readFileSync(path.join(realDirectory, realSamples[0]?.file as string), "utf8");
      const { transcript, warnings } = read(text);
      const names = new Map<string, number>();
      for (const block of blocks(transcript))
        if (block.type === "tool_use")
          names.set(block.tool.name, (names.get(block.tool.name) ?? 0) + 1);
      expect(Object.fromEntries(names)).toEqual({ Read: 107, Bash: 206, Edit: 125, Write: 16 });
      expect(
        transcript.messages.filter((message) => message.context?.source === "bashExecution"),
      ).toHaveLength(3);
      expect(warnings.get("pi.bash-execution")).toBe(3);
      expect(warnings.get("pi.header-fields")).toBe(1);
      expect(transcript.meta).toMatchObject({
        id: "ffae836b-9420-4060-ac13-7745215f90ff",
        model: "claude-opus-4-5",
      });
    });

    it("names OpenClaw's own custom entries as a counted loss", () => {
      const text = readFileSync(path.join(realDirectory, realSamples[1]?.file as string), "utf8");
      const { warnings } = read(text);
      expect(warnings.get("pi.custom-entry")).toBe(2);
      expect(warnings.get("pi.compaction-fields")).toBe(3);
    });

    it("maps failed turns to the error stop reason and keeps the cost total", () => {
      const { transcript, warnings } = read(
        readFileSync(path.join(realDirectory, realSamples[2]?.file as string), "utf8"),
      );
      expect(transcript.messages.map((message) => message.stopReason ?? null)).toEqual([
        null,
        "error",
        null,
        "error",
      ]);
      expect(warnings.get("pi.error-message")).toBe(2);
      const openclaw = read(
        readFileSync(path.join(realDirectory, realSamples[1]?.file as string), "utf8"),
      ).transcript;
      const costs = openclaw.messages.flatMap((message) =>
        message.usage?.costUsd === undefined ? [] : [message.usage.costUsd],
      );
      expect(costs.length).toBeGreaterThan(0);
    });
  },
);

describe("the session tree", () => {
  it("follows the path from the last entry and counts the abandoned branch", () => {
    const { transcript, warnings } = read(
      readFileSync(path.join(fixtures, "tree-branches.jsonl"), "utf8"),
    );
    // Five message entries (two calls, two results, a reply) sit on the branch the user left.
    expect(warnings.get("pi.branch")).toBe(5);
    expect(
      blocks(transcript).flatMap((block) => (block.type === "tool_use" ? [block.id] : [])),
    ).toEqual(["toolu_03Write"]);
    expect(transcript.messages[1]?.context).toEqual({ kind: "injected", source: "branch_summary" });
    expect(transcript.meta.title).toBe("Cart discount");
  });

  it("ends the walk at a parentId cycle and at a parent that names nothing", () => {
    const header =
      '{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z"}';
    const user = (id: string, parent: string | null, text: string) =>
      JSON.stringify({
        type: "message",
        id,
        parentId: parent,
        timestamp: "2026-01-01T00:00:01.000Z",
        message: { role: "user", content: text },
      });
    const cycle = [header, user("aa", "bb", "one"), user("bb", "aa", "two")].join("\n");
    expect(read(cycle).transcript.messages.map((message) => message.content)).toEqual([
      [{ type: "text", text: "one" }],
      [{ type: "text", text: "two" }],
    ]);
    const dangling = [header, user("aa", null, "one"), user("bb", "zz", "two")].join("\n");
    const { transcript, warnings } = read(dangling);
    expect(transcript.messages).toHaveLength(1);
    expect(warnings.get("pi.branch")).toBe(1);
  });

  it("reads a file whose first line is not a header, and says so", () => {
    const { transcript, warnings } = read(
      '{"type":"message","message":{"role":"user","content":"hi"}}\n',
    );
    expect(warnings.get("pi.not-a-session")).toBe(1);
    expect(transcript.meta.id).toBe("unknown-session");
  });
});

describe("parse errors", () => {
  it("names the line of invalid JSON", () => {
    const error = txcriptErrorOf(() =>
      piCodec.parse('{"type":"session","id":"a"}\n{"type":\n', { file: "s.jsonl" }),
    );
    expect(error.code).toBe("INVALID_JSON");
    expect(error.location).toMatchObject({ file: "s.jsonl", line: 2 });
  });
  it("refuses a line that is not an object", () => {
    const error = txcriptErrorOf(() => piCodec.parse('{"type":"session","id":"a"}\n[1]\n'));
    expect(error.code).toBe("INVALID_DOCUMENT");
    expect(error.location?.line).toBe(2);
  });
});

describe("losses", () => {
  it("are prefixed with the harness id and unique", () => {
    const codes = piLosses.map((loss) => loss.code);
    expect(codes.every((code) => code.startsWith("pi."))).toBe(true);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe("detect", () => {
  it("takes a session header on line 1 and nothing else", () => {
    expect(piCodec.detect('{"type":"session","version":3,"id":"x","timestamp":"t"}\n')).toBe(true);
    expect(piCodec.detect('{"type":"session"}\n')).toBe(false);
    expect(piCodec.detect('{"parentUuid":null,"sessionId":"x","type":"user"}\n')).toBe(false);
    expect(piCodec.detect("not json")).toBe(false);
  });
});
