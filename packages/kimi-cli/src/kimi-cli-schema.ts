// Kimi CLI's context file (context.jsonl) as txcript holds it: the JSONL text
// split into its lines, each kept as written with its parsed object, so
// serialize gives back the exact bytes; plus what the store knows of the
// session that the file does not say (its id, work dir, title, start time)
// and its subagents' context files. Which lines Kimi CLI itself reads, and
// how, is in recordOf (docs/formats/kimi-cli.md, "Records").
import {
  type JsonLines,
  type JsonObjectLine,
  joinJsonLines,
  type ParseOptions,
  parseJsonObjectLines,
} from "@txcript/core";

export const harness = "kimi_cli";

export type KimiCliLine = JsonObjectLine;

/** What the session directory says that context.jsonl does not (absent for a lone file). */
export interface KimiCliSessionInfo {
  /** The session directory's name (or the legacy `<id>.jsonl` file's stem). */
  id?: string;
  /** The work dir kimi.json records for the session's work-dir hash. */
  cwd?: string;
  /** state.json custom_title. */
  title?: string;
  /** The first wire.jsonl record's time, as a Common timestamp. */
  startTime?: string;
  /**
   * The id a file outside a store's layout goes by when it records none: as
   * the layout names a session, its directory's name for a `context.jsonl`,
   * else its file name without `.jsonl` (kimi-cli-load.ts looseFileId).
   */
  fileId?: string;
}

/** A subagent instance: `subagents/<agent id>/` with its own context.jsonl and meta.json. */
export interface KimiCliSubagentFile {
  id: string;
  /** meta.json subagent_type. */
  subagentType?: string;
  /** meta.json description. */
  description?: string;
  /** The Agent tool call that launched it (wire.jsonl SubagentEvent parent_tool_call_id). */
  toolUseId?: string;
  session: KimiCliSession;
}

export interface KimiCliSession extends JsonLines<KimiCliLine> {
  info?: KimiCliSessionInfo;
  subagents?: KimiCliSubagentFile[];
}

/** The text part Kimi CLI's compaction puts first in the message that replaces the history (compaction.py). */
export const compactionPrefix =
  "<system>Previous context has been compacted. Here is the compaction output:</system>";

/** The text Kimi CLI puts first in a failed tool call's result (soul/message.py tool_result_to_message). */
export const errorPrefix = "<system>ERROR:";

export {
  type KimiRecord,
  looksLikeLine,
  messageProblem,
  partProblem,
  recordOf,
  type TxcriptMeta,
  txcriptKey,
} from "./kimi-cli-sniff.js";

export function parseSession(text: string, options: ParseOptions = {}): KimiCliSession {
  return parseJsonObjectLines(text, {
    harness,
    ...(options.file === undefined ? {} : { file: options.file }),
  });
}

export function serializeSession(session: KimiCliSession): string {
  return joinJsonLines(session.lines, session.finalNewline);
}
