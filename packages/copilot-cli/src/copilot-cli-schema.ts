// The native body of a GitHub Copilot CLI session: its event log
// (`session-state/<id>/events.jsonl`, one JSON event per line), each line kept
// as written so serialize(parse(s)) === s. Events are
// `{type, data, id, timestamp, parentId}` (docs/formats/copilot-cli.md); this
// module checks only that each line is a JSON object and leaves meaning to
// copilot-cli-to-common.ts.
import {
  type JsonObject,
  type JsonObjectLine,
  joinJsonLines,
  type ParseOptions,
  parseJsonObjectLine,
  splitJsonLines,
} from "@txcript/core";

export const harness = "copilot_cli";

/** One line of events.jsonl: its text as written and its event (absent for a blank line). */
export type CopilotCliLine = JsonObjectLine;

export interface CopilotCliSession {
  lines: CopilotCliLine[];
  /** Whether the text ended with "\n" (Copilot CLI ends every event with one). */
  finalNewline: boolean;
}

/** An event's fields as the reader uses them; `data` is `{}` when absent or not an object. */
export interface CopilotCliEvent {
  type: string;
  data: JsonObject;
  id?: string;
  timestamp?: string;
  agentId?: string;
  line: number;
}

export function parseSession(text: string, options: ParseOptions = {}): CopilotCliSession {
  const lineOptions = { harness, ...(options.file === undefined ? {} : { file: options.file }) };
  return splitJsonLines(text, (lineText, number) =>
    parseJsonObjectLine(lineText, number, lineOptions),
  );
}

export function serializeSession(session: CopilotCliSession): string {
  return joinJsonLines(session.lines, session.finalNewline);
}
