// Whether a text is a GitHub Copilot CLI event log: the codec's `detect`,
// with no import but the language's own, so @txcript/harnesses/sniffs (the
// CLI's detection) tells one apart without loading the codec or a schema.

/** A cheap sniff: the first event is session.start, as Copilot CLI writes it. */
export function copilotCliSniff(text: string): boolean {
  const head = text.slice(0, 4096);
  return /^\s*\{\s*"type"\s*:\s*"session\.start"\s*,\s*"data"\s*:\s*\{\s*"sessionId"\s*:/.test(
    head,
  );
}
