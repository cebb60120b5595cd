// The native body of a GitHub Copilot CLI session: its event log
// (`session-state/<id>/events.jsonl`, one JSON event per line), each line kept
// as written so serialize(parse(s)) === s. Events are
// `{type, data, id, timestamp, parentId}` (docs/formats/copilot-cli.md); this
// module checks only that each line is a JSON object and leaves meaning to
// copilot-cli-to-common.ts.
import {
  isJsonObject,
  type JsonObject,
  type JsonObjectLine,
  joinJsonLines,
  type ParseOptions,
  parseJsonObjectLine,
  quote,
  splitJsonLines,
  TxcriptError,
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

/**
 * The lines of an event log. Copilot CLI begins every log with session.start
 * and refuses to resume one that does not parse; a text whose first event is
 * not a session.start naming its sessionId (an empty file, say) is
 * INVALID_DOCUMENT, never read as an empty session.
 */
export function parseSession(text: string, options: ParseOptions = {}): CopilotCliSession {
  const file = options.file === undefined ? {} : { file: options.file };
  const lineOptions = { harness, ...file };
  const session = splitJsonLines(text, (lineText, number) =>
    parseJsonObjectLine(lineText, number, lineOptions),
  );
  const first = session.lines.findIndex((line) => line.value !== undefined);
  const start = first === -1 ? undefined : session.lines[first]?.value;
  const data = start?.type === "session.start" ? start.data : undefined;
  if (!isJsonObject(data) || typeof data.sessionId !== "string" || data.sessionId === "")
    throw new TxcriptError(
      "INVALID_DOCUMENT",
      "not a Copilot CLI event log: its first event is not a session.start naming a sessionId",
      {
        harness,
        location: { ...file, ...(first === -1 ? {} : { line: first + 1 }) },
        hint:
          first === -1
            ? "the file holds no event"
            : `expected {"type":"session.start","data":{"sessionId":…}}, got ${quote(session.lines[first]?.text ?? "", 80)}`,
      },
    );
  return session;
}

export function serializeSession(session: CopilotCliSession): string {
  return joinJsonLines(session.lines, session.finalNewline);
}
