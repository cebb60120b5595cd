// Whether a text is a dump of Crush rows: the codec's `detect`, with no
// import but the language's own, so @txcript/harnesses/sniffs (the CLI's
// detection) tells one apart without loading the codec or a schema.

/** Cheap sniff: a dump opens with a session row's Crush-only columns. */
export function detectCrushSession(text: string): boolean {
  const head = text.slice(0, 4000);
  return (
    head.trimStart().startsWith("{") &&
    head.includes('"parent_session_id"') &&
    head.includes('"completion_tokens"') &&
    head.includes('"message_count"')
  );
}

/** Crush's detection. */
export const crushSniff = detectCrushSession;
