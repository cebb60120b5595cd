// The native body of a Claude Code session file: its lines, each kept as the
// exact text Claude Code wrote beside the JSON value parsed from it, so
// serialize(parse(s)) === s byte for byte and unknown line types and envelope
// keys pass through. This module parses and prints lines; it does not map
// them to the Common model (see claude-code-to-common.ts).
import { isJsonObject, type JsonObject, parseJson, quote, TxcriptError } from "@txcript/core";

export const harness = "claude_code";

/** One line of a session file: the text as written, and its JSON object (absent for a blank line). */
export interface ClaudeCodeLine {
  readonly text: string;
  readonly value?: JsonObject;
}

/** The lines of one file, and whether its text ended with "\n". */
export interface ClaudeCodeFile {
  readonly lines: readonly ClaudeCodeLine[];
  readonly finalNewline: boolean;
}

/** A 2.x subagent file, `<session>/subagents/agent-<agentId>.jsonl`. */
export interface ClaudeCodeSubagentFile {
  /** The `<agentId>` of its name. */
  readonly agentId: string;
  readonly session: ClaudeCodeFile;
}

/**
 * A whole session: the session file's lines, and the subagent files beside
 * it when the store loaded them (parse reads one file, so it has none;
 * serialize prints the session file only — the store writes the others).
 */
export interface ClaudeCodeSession extends ClaudeCodeFile {
  readonly subagentFiles?: readonly ClaudeCodeSubagentFile[];
}

/**
 * A line fromCommon wrote: its text, the value parsed from that text only
 * when asked (and then kept). The writer prints each line as it builds it and
 * holds on to the text alone, so a long session is not kept twice.
 */
export function writtenLine(text: string): ClaudeCodeLine {
  let parsed: JsonObject | undefined;
  return {
    text,
    get value(): JsonObject {
      parsed ??= parseJson(text, { harness }) as JsonObject;
      return parsed;
    },
  };
}

/** Line `number` (1-based) of a session file; parseSession and the streaming reader read lines so. */
export function parseSessionLine(
  lineText: string,
  number: number,
  file: { file?: string },
): ClaudeCodeLine {
  // A line with only whitespace (a "\r" left by an editor, say) is kept verbatim and ignored.
  if (lineText.trim() === "") return { text: lineText };
  const value = parseJson(lineText, { harness, ...file, line: number });
  if (!isJsonObject(value)) {
    throw new TxcriptError("INVALID_DOCUMENT", "a session line must be a JSON object", {
      harness,
      location: { ...file, line: number },
      hint: `expected {"type": ...}, got ${quote(lineText, 80)}`,
    });
  }
  return { text: lineText, value };
}

export function parseSession(text: string, options: { file?: string } = {}): ClaudeCodeSession {
  const file = options.file === undefined ? {} : { file: options.file };
  const finalNewline = text.endsWith("\n");
  const body = finalNewline ? text.slice(0, -1) : text;
  const lines: ClaudeCodeLine[] = [];
  if (text === "") return { lines: [], finalNewline };
  let start = 0;
  let number = 0;
  while (start <= body.length) {
    const end = body.indexOf("\n", start);
    const lineText = end === -1 ? body.slice(start) : body.slice(start, end);
    number += 1;
    lines.push(parseSessionLine(lineText, number, file));
    if (end === -1) break;
    start = end + 1;
  }
  return { lines, finalNewline };
}

export function serializeSession(session: ClaudeCodeSession): string {
  const text = session.lines.map((line) => line.text).join("\n");
  return session.finalNewline ? `${text}\n` : text;
}

export { arrayAt, objectAt, stringAt } from "@txcript/core";
