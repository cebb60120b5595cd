// The two stream-json dialects: how to tell them apart, and how each spells
// tools. Claude Code's tool names and inputs are already canonical; Amp's go
// through the dialect @txcript/amp owns (never a copy of it here).
import {
  type AmpToolEra,
  ampToolFromCommon,
  ampToolToCommon,
  defaultAmpToolEra,
} from "@txcript/amp";
import {
  fromCanonical,
  isJsonObject,
  type Json,
  type JsonObject,
  ownValue,
  type Tool,
  toCanonical,
} from "@txcript/core";
import { isBlank, type StreamJsonDialect } from "./stream-json-lines.js";

/**
 * What one line says about its producer, or undefined when it says nothing.
 * Claude Code's init carries `claude_code_version` and every Claude Code line
 * a `uuid`; Amp's init has neither, Amp thread ids start with `T-`, and Amp's
 * assistant lines have no `message.id`.
 */
export function dialectClue(value: JsonObject): StreamJsonDialect | undefined {
  const type = ownValue(value, "type");
  if (Object.hasOwn(value, "uuid")) return "claude";
  if (type === "system" && ownValue(value, "subtype") === "init")
    return Object.hasOwn(value, "claude_code_version") ? "claude" : "amp";
  const session = ownValue(value, "session_id");
  if (typeof session === "string" && /^T-/.test(session)) return "amp";
  if (type === "assistant") {
    const message = ownValue(value, "message");
    if (isJsonObject(message)) return Object.hasOwn(message, "id") ? "claude" : "amp";
  }
  return undefined;
}

/**
 * The dialect of a capture's text, from its first lines that say anything.
 * Claude Code's when nothing tells (the format is Claude Code's; Amp copies it).
 */
export function detectStreamJsonDialect(text: string): StreamJsonDialect {
  let seen = 0;
  let start = 0;
  while (start < text.length && seen < 50) {
    const end = text.indexOf("\n", start);
    const line = text.slice(start, end === -1 ? text.length : end);
    start = end === -1 ? text.length : end + 1;
    if (isBlank(line)) continue;
    seen += 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (isJsonObject(value)) {
      const clue = dialectClue(value as JsonObject);
      if (clue !== undefined) return clue;
    }
  }
  return "claude";
}

export interface DialectToolOptions {
  /**
   * Amp dialect: the shell tool's spelling, as in @txcript/amp (one name,
   * one default: `legacy`, `Bash {cmd, cwd}`, what Amp's stream-json manual
   * shows; `modern` writes `shell_command {command, workdir}`, what current
   * Amp prints).
   */
  toolEra?: AmpToolEra;
}

/** A tool call as the producer spelled it → a Common tool. */
export function toolToCommon(dialect: StreamJsonDialect, name: string, input: Json): Tool {
  return dialect === "amp" ? ampToolToCommon(name, input) : fromCanonical(name, input);
}

/** A Common tool → the name and input the dialect spells it with. */
export function toolFromCommon(
  dialect: StreamJsonDialect,
  tool: Tool,
  options: DialectToolOptions = {},
): { name: string; input: Json } {
  return dialect === "amp"
    ? ampToolFromCommon(tool, { toolEra: options.toolEra ?? defaultAmpToolEra })
    : toCanonical(tool);
}
