// The native body of a Claude Code session file: its lines, each kept as the
// exact text Claude Code wrote beside the JSON value parsed from it, so
// serialize(parse(s)) === s byte for byte and unknown line types and envelope
// keys pass through. This module parses and prints lines; it does not map
// them to the Common model (see claude-code-to-common.ts).
import {
  type JsonObject,
  joinJsonLines,
  parseJsonObjectLine,
  parseJsonObjectLines,
  writtenJsonLine,
} from "@txcript/core";

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
  return writtenJsonLine(text, harness);
}

/** Line `number` (1-based) of a session file; parseSession and the streaming reader read lines so. */
export function parseSessionLine(
  lineText: string,
  number: number,
  file: { file?: string },
): ClaudeCodeLine {
  return parseJsonObjectLine(lineText, number, { harness, ...file });
}

export function parseSession(text: string, options: { file?: string } = {}): ClaudeCodeSession {
  const file = options.file === undefined ? {} : { file: options.file };
  return parseJsonObjectLines(text, { harness, ...file });
}

export function serializeSession(session: ClaudeCodeSession): string {
  return joinJsonLines(session.lines, session.finalNewline);
}

export { arrayAt, objectAt, stringAt } from "@txcript/core";
