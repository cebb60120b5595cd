// Whether a text is an `opencode export` document: the codec's `detect`,
// with no import but the language's own, so @txcript/harnesses/sniffs (the
// CLI's detection) tells one apart without loading the codec or a schema.

/** The cheap sniff: a JSON object opening with `"info"` whose session id starts with `ses`. */
export function looksLikeOpencodeExport(text: string): boolean {
  const head = text.slice(0, 4096);
  return /^\s*\{\s*"info"\s*:\s*\{/.test(head) && /"id"\s*:\s*"ses/.test(head);
}

/** OpenCode's detection (never throws). */
export function opencodeSniff(text: string): boolean {
  try {
    return looksLikeOpencodeExport(text);
  } catch {
    return false;
  }
}
