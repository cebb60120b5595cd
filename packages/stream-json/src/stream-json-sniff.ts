// Whether a text is a stream-json capture: the codec's `detect`, with no
// import but the language's own, so @txcript/harnesses/sniffs (the CLI's
// detection, and its live view of a pipe) tells one apart without loading
// the codec.

const firstLine = /^\s*\{\s*"type"\s*:\s*"(?:system|user|assistant|result|stream_event)"/;

/** stream-json's detection: the first non-blank line is a typed event naming a session_id. */
export function streamJsonSniff(text: string): boolean {
  const start = text.search(/\S/);
  if (start === -1) return false;
  const end = text.indexOf("\n", start);
  const line = text.slice(start, end === -1 ? undefined : end);
  return firstLine.test(line) && line.includes('"session_id"');
}
