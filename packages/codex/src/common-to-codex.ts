// Common → Codex rollout in the legacy line format every tested Codex reads
// and resumes: `session_meta` first (UUID id, string times with
// milliseconds, source "cli", provider "openai"), response items for the
// conversation with their event echoes (user_message, agent_message) so the
// TUI and app-server show it, token_count for usage, turn_context for models.
// Blocks become units (codex-units.ts), rendered here one line at a time.
import {
  type ConversionOptions,
  type JsonObject,
  type Message,
  stringifyJson,
  type Transcript,
  type Usage,
} from "@txcript/core";
import { baseInstructionsOf, contentItems, type RunBlock } from "./codex-content.js";
import { codexSessionId } from "./codex-paths.js";
import { type CodexLinesRollout, harness, writtenLine } from "./codex-schema.js";
import { lineageKey, unknownCliVersion } from "./codex-to-common.js";
import { type UnitSource, unitsOf } from "./codex-unit-stream.js";
import type { Unit } from "./codex-units.js";

export interface CodexWriteOptions extends ConversionOptions {
  /**
   * "openai-encrypted" (the default) keeps the encrypted content of OpenAI
   * reasoning; "text-only" drops every encrypted blob and keeps the text. Use
   * "text-only" for sessions not written by Codex: encrypted reasoning from
   * another account makes Codex fail every later turn. codexHarness picks it
   * for every source but Codex.
   */
  reasoning?: "openai-encrypted" | "text-only";
}

/** What the early user_message echo says when a session has no prompt of its own. */
export const placeholderPrompt = "[txcript: this session has no user prompt]";

function line(timestamp: string, type: string, payload: JsonObject): string {
  return stringifyJson({ timestamp, type, payload }, undefined, harness);
}

function dataUrl(block: RunBlock): string | undefined {
  return block.type === "image"
    ? `data:${block.source.mediaType};base64,${block.source.data}`
    : undefined;
}

function userEcho(timestamp: string, blocks: readonly RunBlock[]): string {
  return line(timestamp, "event_msg", {
    type: "user_message",
    message: blocks.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n\n"),
    images: blocks.flatMap((block) => dataUrl(block) ?? []),
    local_images: [],
    text_elements: [],
  });
}

/** A run of same-side text and image blocks, written as one message item. */
interface Run {
  side: "user" | "assistant";
  injected: boolean;
  blocks: RunBlock[];
  timestamp: string;
}

/** The first prompt run of the transcript (what Codex's listing shows), when there is one. */
function firstPrompt(source: UnitSource): Run | undefined {
  let run: Run | undefined;
  for (const unit of unitsOf(source, undefined)) {
    if (unit.kind === "run") {
      if (run === undefined || run.side !== unit.side) {
        if (run !== undefined && run.side === "user" && !run.injected) return run;
        run = {
          side: unit.side,
          injected: unit.injected,
          blocks: [unit.block],
          timestamp: unit.timestamp,
        };
      } else run.blocks.push(unit.block);
      continue;
    }
    if (run !== undefined && run.side === "user" && !run.injected) return run;
    run = undefined;
  }
  return run !== undefined && run.side === "user" && !run.injected ? run : undefined;
}

/** The lines of the rollout for `transcript`, one at a time (no newlines). */
export function commonToCodexLines(
  transcript: Transcript,
  options?: CodexWriteOptions,
): Generator<string> {
  const instructions = baseInstructionsOf(transcript);
  return codexLinesOf(
    {
      meta: transcript.meta,
      subagents: transcript.subagents !== undefined && transcript.subagents.length > 0,
      instructions,
      skipFirst: instructions !== undefined,
      messages: transcript.messages,
      lookahead: () => transcript.messages,
    },
    options,
  );
}

/**
 * What the rollout is written from: a UnitSource, the base instructions
 * (the first message, when it is them), and `lookahead()`, the messages
 * again from the start, read as far as the first prompt (the early echo).
 */
export interface CodexLineSource extends UnitSource {
  instructions: string | undefined;
  lookahead(): Iterable<Message>;
}

/** The lines of the rollout for a CodexLineSource, one at a time (no newlines). */
export function* codexLinesOf(
  source: CodexLineSource,
  options?: CodexWriteOptions,
): Generator<string> {
  const { meta, instructions } = source;
  const id = codexSessionId(meta.id, meta.timestamp);
  const cwd = meta.cwd ?? "";
  const sessionMeta: JsonObject = {
    id,
    timestamp: meta.timestamp,
    cwd,
    originator: "txcript",
    cli_version: meta.cliVersion ?? unknownCliVersion,
    source: "cli",
    model_provider: "openai",
  };
  if (meta.gitBranch !== undefined && meta.gitBranch !== "")
    sessionMeta.git = { branch: meta.gitBranch };
  if (instructions !== undefined) sessionMeta.base_instructions = { text: instructions };
  // Codex 0.142.5 and 0.171.0 ignore keys they do not know here (checked by the interop test).
  if (meta.lineage !== undefined) sessionMeta[lineageKey] = { ...meta.lineage };
  yield line(meta.timestamp, "session_meta", sessionMeta);

  // Codex lists a session only when a user_message echo comes early: the first prompt's goes here.
  const prompt = firstPrompt({ ...source, messages: source.lookahead() });
  yield prompt === undefined
    ? userEcho(meta.timestamp, [{ type: "text", text: placeholderPrompt }])
    : userEcho(prompt.timestamp, prompt.blocks);
  let promptEchoed = prompt !== undefined;

  const total = {
    input_tokens: 0,
    cached_input_tokens: 0,
    output_tokens: 0,
    reasoning_output_tokens: 0,
    total_tokens: 0,
  };
  const tokenCount = (usage: Usage, timestamp: string): string => {
    const input = usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens;
    const last: JsonObject = {
      input_tokens: input,
      cached_input_tokens: usage.cacheReadInputTokens,
      output_tokens: usage.outputTokens,
      reasoning_output_tokens: usage.reasoningOutputTokens ?? 0,
      total_tokens: input + usage.outputTokens,
    };
    if (usage.cacheCreationInputTokens > 0)
      last.cache_write_input_tokens = usage.cacheCreationInputTokens;
    total.input_tokens += input;
    total.cached_input_tokens += usage.cacheReadInputTokens;
    total.output_tokens += usage.outputTokens;
    total.reasoning_output_tokens += usage.reasoningOutputTokens ?? 0;
    total.total_tokens += input + usage.outputTokens;
    return line(timestamp, "event_msg", {
      type: "token_count",
      info: { total_token_usage: { ...total }, last_token_usage: last, model_context_window: null },
      rate_limits: null,
    });
  };

  let run: Run | undefined;
  const flush = function* (): Generator<string> {
    if (run === undefined) return;
    const { side, blocks, timestamp, injected } = run;
    run = undefined;
    yield line(timestamp, "response_item", {
      type: "message",
      role: side,
      content: contentItems(blocks, side),
    });
    if (side === "assistant")
      yield line(timestamp, "event_msg", {
        type: "agent_message",
        message: blocks
          .flatMap((block) => (block.type === "text" ? [block.text] : []))
          .join("\n\n"),
      });
    else if (!injected) {
      if (promptEchoed) promptEchoed = false;
      else yield userEcho(timestamp, blocks);
    }
  };

  for (const unit of unitsOf(source, options)) {
    if (unit.kind === "run") {
      if (run !== undefined && run.side === unit.side) run.blocks.push(unit.block);
      else {
        yield* flush();
        run = {
          side: unit.side,
          injected: unit.injected,
          blocks: [unit.block],
          timestamp: unit.timestamp,
        };
      }
      continue;
    }
    yield* flush();
    yield* render(unit);
  }
  yield* flush();

  function* render(unit: Exclude<Unit, { kind: "run" }>): Generator<string> {
    switch (unit.kind) {
      case "item":
        yield line(unit.timestamp, "response_item", unit.payload);
        if (unit.echo !== undefined) yield line(unit.timestamp, "event_msg", unit.echo);
        return;
      case "context":
        yield line(unit.timestamp, "response_item", {
          type: "message",
          role: unit.role,
          content: contentItems(unit.blocks, "user"),
        });
        return;
      case "turn":
        yield line(unit.timestamp, "turn_context", {
          cwd,
          approval_policy: "on-request",
          sandbox_policy: { type: "read-only" },
          model: unit.model,
          summary: "auto",
        });
        return;
      case "compaction":
        yield line(unit.timestamp, "compacted", unit.payload);
        yield line(unit.timestamp, "event_msg", { type: "context_compacted" });
        return;
      case "usage":
        yield tokenCount(unit.usage, unit.timestamp);
        return;
    }
  }
}

export function commonToCodex(
  transcript: Transcript,
  options?: CodexWriteOptions,
): CodexLinesRollout {
  const lines = [...commonToCodexLines(transcript, options)].map(writtenLine);
  return {
    kind: "lines",
    lines,
    finalNewline: true,
    ...(transcript.meta.title === undefined ? {} : { title: transcript.meta.title }),
  };
}
