// Captures fromCommon writes, checked line by line by the TypeScript
// compiler against the vendors' own types: SDKMessage from
// @anthropic-ai/claude-agent-sdk (Claude dialect) and StreamMessage from
// @sourcegraph/amp-sdk (Amp dialect). Each line becomes a type literal that
// must be assignable to the vendor type. Where real captures disagree with a
// vendor type, the capture wins and the relaxation is named below (and in
// docs/formats/stream-json.md).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Transcript } from "@txcript/core";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import fc from "fast-check";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { fixtureReadOptions, fixturesDirectory, realDirectory } from "./fixtures-support.js";
import { streamJsonCodec } from "./index.js";

const packageDirectory = path.resolve(import.meta.dirname, "..");

const claudeTypes = `
import type { SDKAssistantMessage, SDKMessage, SDKResultError, SDKResultMessage, SDKResultSuccess, SDKSystemMessage } from "@anthropic-ai/claude-agent-sdk";
type Loosen<T, K extends PropertyKey> = T extends unknown ? Omit<T, K & keyof T> & Partial<Pick<T, K & keyof T>> : never;
type ApiMessage = SDKAssistantMessage["message"];
type Counts = "input_tokens" | "output_tokens" | "cache_read_input_tokens" | "cache_creation_input_tokens";
// Real Claude Code writes only the four counts, cache_creation and service_tier.
type CapturedUsage = Loosen<ApiMessage["usage"], Exclude<keyof ApiMessage["usage"], Counts>>;
// Real Claude Code text blocks carry no citations key.
type CapturedBlock = Loosen<ApiMessage["content"][number], "citations">;
// Real Claude Code messages carry no container, context_management, diagnostics or stop_details.
type CapturedApiMessage = Omit<Loosen<ApiMessage, "container" | "context_management" | "diagnostics" | "stop_details">, "usage" | "content"> & { usage: CapturedUsage; content: CapturedBlock[] };
type Assistant = Omit<SDKAssistantMessage, "message"> & { message: CapturedApiMessage };
// What txcript cannot know about a run it did not watch: it writes none of these.
type Init = Loosen<SDKSystemMessage, "apiKeySource" | "permissionMode" | "slash_commands" | "output_style" | "skills" | "plugins">;
// Usage as real Claude Code 2.0.x session files write it (no fallback_credit,
// inference_geo, iterations, output_tokens_details or speed).
type RunUsage<R> = Omit<R, "usage"> & { usage?: Loosen<SDKResultSuccess["usage"], Exclude<keyof SDKResultSuccess["usage"], Counts>> };
type Result = RunUsage<Loosen<SDKResultSuccess, "duration_api_ms" | "total_cost_usd" | "modelUsage" | "permission_denials">>;
type ErrorResult = RunUsage<SDKResultError>;
type Line = Exclude<SDKMessage, SDKAssistantMessage | SDKSystemMessage | SDKResultMessage> | Assistant | Init | Result | ErrorResult;
`;

const ampTypes = `
import type { AssistantMessage, StreamMessage } from "@sourcegraph/amp-sdk";
type ApiMessage = AssistantMessage["message"];
// Real Amp captures have no message.id, model or stop_sequence; the manual
// (seed 004) lists more stop reasons than the SDK and, with
// --stream-json-thinking, thinking and redacted_thinking blocks. A Raw tool
// input from another harness may be any JSON, not only an object.
type Block =
  | Exclude<ApiMessage["content"][number], { type: "tool_use" }>
  | { type: "tool_use"; id: string; name: string; input: unknown }
  | { type: "thinking"; thinking: string; signature?: string }
  | { type: "redacted_thinking"; data: string };
type CapturedApiMessage = Omit<ApiMessage, "id" | "model" | "stop_sequence" | "content" | "stop_reason"> & {
  content: Block[];
  stop_reason: "end_turn" | "max_tokens" | "stop_sequence" | "tool_use" | "pause_turn" | "refusal" | null;
};
type Line = Exclude<StreamMessage, AssistantMessage> | (Omit<AssistantMessage, "message"> & { message: CapturedApiMessage });
`;

const rawAmpTypes = `
import type { StreamMessage } from "@sourcegraph/amp-sdk";
type Line = StreamMessage;
`;

/** A source file whose line `i` + offset asserts that capture line `i` is a `Line`. */
function checkSource(header: string, lines: string[]): { source: string; firstLine: number } {
  const firstLine = header.split("\n").length + 1;
  const body = lines
    .map(
      (text, index) =>
        `declare const l${index}: ${text}; export const c${index}: Line = l${index};`,
    )
    .join("\n");
  return { source: `${header}\n${body}\n`, firstLine };
}

/** Type-check virtual files inside this package (so its node_modules resolve); errors per file. */
function typeCheck(
  files: Record<string, string>,
): Record<string, { line: number; text: string }[]> {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: true,
    noEmit: true,
    types: ["node"],
  };
  const virtual = new Map(
    Object.entries(files).map(([name, text]) => [path.join(packageDirectory, name), text]),
  );
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (fileName, language, ...rest) => {
    const text = virtual.get(fileName);
    return text === undefined
      ? getSourceFile.call(host, fileName, language, ...rest)
      : ts.createSourceFile(fileName, text, language, true);
  };
  const fileExists = host.fileExists;
  host.fileExists = (fileName) => virtual.has(fileName) || fileExists.call(host, fileName);
  const program = ts.createProgram([...virtual.keys()], options, host);
  const errors: Record<string, { line: number; text: string }[]> = {};
  for (const [name] of Object.entries(files)) {
    const file = program.getSourceFile(path.join(packageDirectory, name));
    errors[name] = ts.getPreEmitDiagnostics(program, file).map((diagnostic) => ({
      line:
        diagnostic.file && diagnostic.start !== undefined
          ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1
          : 0,
      text: ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"),
    }));
  }
  return errors;
}

// Every fixture's conversation plus generated ones (seeded): every block
// kind, typed and Raw tools, JSON output, errors, images, usage, stop reasons.
const transcripts: Transcript[] = [
  ...[
    "claude-tools.jsonl",
    "claude-replay-partial.jsonl",
    "claude-multi-run.jsonl",
    "amp-multi-run.jsonl",
  ].map((name) =>
    streamJsonCodec.toCommon(
      streamJsonCodec.parse(readFileSync(path.join(fixturesDirectory, name), "utf8")),
      fixtureReadOptions,
    ),
  ),
  ...fc.sample(transcriptArbitrary({ maxTurns: 4 }), { numRuns: 40, seed: 20260501 }),
];

function captureLines(dialect: "claude" | "amp"): string[] {
  return transcripts.flatMap((transcript) =>
    streamJsonCodec
      .serialize(streamJsonCodec.fromCommon(transcript, { dialect }))
      .trimEnd()
      .split("\n"),
  );
}

const realAmp = path.join(realDirectory, "amp-stream-same-run.jsonl");
const realAmpLines = (() => {
  try {
    return readFileSync(realAmp, "utf8").trimEnd().split("\n");
  } catch {
    console.warn(`skipping the real Amp capture type check: ${realAmp} is not present`);
    return undefined;
  }
})();

describe("captures fromCommon writes type-check against the vendors' SDK types", () => {
  const claude = checkSource(claudeTypes, captureLines("claude"));
  const amp = checkSource(ampTypes, captureLines("amp"));
  const files: Record<string, string> = {
    "__claude_check__.ts": claude.source,
    "__amp_check__.ts": amp.source,
  };
  if (realAmpLines) {
    files["__amp_real_check__.ts"] = checkSource(ampTypes, realAmpLines).source;
    files["__amp_real_raw_check__.ts"] = checkSource(rawAmpTypes, realAmpLines).source;
  }
  const errors = typeCheck(files);

  it("every Claude-dialect line is an SDKMessage (as real captures spell it)", () => {
    expect(captureLines("claude").length).toBeGreaterThan(300);
    expect(errors["__claude_check__.ts"]).toEqual([]);
  });
  it("every Amp-dialect line is a StreamMessage (as real captures spell it)", () => {
    expect(errors["__amp_check__.ts"]).toEqual([]);
  });
  it.skipIf(!realAmpLines)("the real Amp capture fits the same relaxed type", () => {
    expect(errors["__amp_real_check__.ts"]).toEqual([]);
  });
  it.skipIf(!realAmpLines)(
    "the real Amp capture breaks the unrelaxed StreamMessage exactly on id, model and stop_sequence",
    () => {
      const raw = errors["__amp_real_raw_check__.ts"] ?? [];
      const { firstLine } = checkSource(rawAmpTypes, []);
      const failing = raw.map((error) => error.line - firstLine);
      const assistantLines = (realAmpLines ?? []).flatMap((text, index) =>
        JSON.parse(text).type === "assistant" ? [index] : [],
      );
      expect(failing).toEqual(assistantLines);
      for (const error of raw)
        expect(error.text).toMatch(/missing the following properties.*: id, model, stop_sequence/s);
    },
  );
  it("the hand-written Claude Code fixtures fit the same type (stream_event lines aside)", () => {
    const lines = ["claude-tools.jsonl", "claude-replay-partial.jsonl", "claude-multi-run.jsonl"]
      .flatMap((name) =>
        readFileSync(path.join(fixturesDirectory, name), "utf8").trimEnd().split("\n"),
      )
      .filter((text) => JSON.parse(text).type !== "stream_event");
    const source = checkSource(claudeTypes, lines).source;
    expect(
      typeCheck({ "__claude_fixtures_check__.ts": source })["__claude_fixtures_check__.ts"],
    ).toEqual([]);
  });
  it("would catch a line that breaks the type", () => {
    const broken = checkSource(claudeTypes, [
      '{"type":"assistant","message":{"role":"assistant"},"session_id":"s"}',
    ]);
    expect(typeCheck({ "__broken_check__.ts": broken.source })["__broken_check__.ts"]).not.toEqual(
      [],
    );
  });
});
