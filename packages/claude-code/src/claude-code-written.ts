// What txcript itself writes into a Claude Code session beyond Claude Code's
// own keys, shared by the writer and the reader: the notice line that opens
// a converted session, and the extra line keys for what Claude Code has no
// key for (lineage, a context message's kind, a subagent's Common fields).
// Claude Code ignores keys it does not know.

/** Text of the system line that opens every session txcript writes. */
export const importNotice = "Session converted by txcript.";

/** On the notice line: Meta.lineage, `{harness, id, txcriptVersion, convertedAt}`. */
export const lineageKey = "txcriptLineage";

/** On a context message's user line (beside `isMeta: true`): Message.context, `{kind, source?}`. */
export const contextKey = "txcriptContext";

/**
 * On the first line of a subagent's lines: its Common fields, `{id,
 * toolUseId?, title?, agentType?, model?, parent?}` (`parent`: the id of
 * the subagent it is nested in).
 */
export const subagentKey = "txcriptSubagent";

/** The content of the result synthesized for a tool call that has none. */
export const missingResultText =
  "[txcript: this tool call has no result in the source session; the call was not answered]";
