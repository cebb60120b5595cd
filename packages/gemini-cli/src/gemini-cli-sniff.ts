// Whether a text is a Gemini CLI chat recording: the codec's `detect`, with
// no import but the language's own, so @txcript/harnesses/sniffs (the CLI's
// detection) tells one apart without loading the codec or a schema.

/** A cheap sniff: a metadata line or a whole document naming a sessionId and a projectHash. */
export function geminiCliSniff(text: string): boolean {
  const head = text.slice(0, 4096);
  if (/^\s*\{\s*"sessionId"\s*:\s*"[^"]*"\s*,\s*"projectHash"\s*:/.test(head)) return true;
  return /^\{\n\s+"sessionId": "/.test(head) && head.includes('"projectHash"');
}
