// Whether a text is an Amp thread: the codec's `detect`, with no import but
// the language's own, so @txcript/harnesses/sniffs (the CLI's detection)
// tells an Amp thread apart without loading the codec or a schema.

/** The cheap sniff: a JSON object whose first keys include Amp's revision counter `v`. */
export function looksLikeAmpThread(text: string): boolean {
  const head = text.slice(0, 4096);
  return (
    /^\s*\{/.test(head) && /"v"\s*:\s*\d/.test(head) && /"(?:messages|created)"\s*:/.test(text)
  );
}

/** Amp's detection (never throws). */
export function ampSniff(text: string): boolean {
  try {
    return looksLikeAmpThread(text);
  } catch {
    return false;
  }
}
