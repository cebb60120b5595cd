// Whether a text is a Claude Code session: the codec's `detect`, with no
// import but the language's own, so @txcript/harnesses/sniffs (the CLI's
// detection) tells a session apart without loading the codec or a schema.

const bookkeepingTypes = new Set(["summary", "file-history-snapshot", "custom-title", "ai-title"]);

/** True when a parsed line looks like Claude Code's own (camelCase envelope, not stream-json). */
export function isClaudeCodeLine(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const line = value as Record<string, unknown>;
  const type = Object.hasOwn(line, "type") ? line.type : undefined;
  if (typeof type !== "string") return false;
  if (bookkeepingTypes.has(type)) return true;
  return Object.hasOwn(line, "parentUuid") && Object.hasOwn(line, "sessionId");
}

/** Claude Code's detection: one of the first 20 lines (of the first 64 KiB) is Claude Code's own. */
export function claudeCodeSniff(text: string): boolean {
  const head = text.slice(0, 65_536).split("\n").slice(0, 20);
  for (const line of head) {
    if (line.trim() === "") continue;
    try {
      if (isClaudeCodeLine(JSON.parse(line))) return true;
    } catch {
      // A cut or foreign line: keep looking.
    }
  }
  return false;
}
