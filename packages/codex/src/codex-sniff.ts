// Whether a text is a Codex rollout: the codec's `detect`, with no import
// but the language's own, so @txcript/harnesses/sniffs (the CLI's detection)
// tells a rollout apart without loading the codec or a schema.

/**
 * The head of a rollout: a session_meta envelope, a 2025 bare header, or a
 * {session: {id, timestamp, instructions}, items} document — whose session
 * object names a timestamp or instructions before any nested object (another
 * harness's `{"session": {...}}` document, Crush's dump, names neither).
 */
const head =
  /^\s*\{\s*("timestamp"\s*:\s*"[^"]*"\s*,\s*("ordinal"\s*:\s*\d+\s*,\s*)?"type"\s*:\s*"session_meta"|"id"\s*:\s*"[^"]*"\s*,\s*"timestamp"|"session"\s*:\s*\{[^{}]*?"(timestamp|instructions)"\s*:)/;

/** Codex's detection: the first 4 KiB open as a rollout does. */
export function codexSniff(text: string): boolean {
  return head.test(text.slice(0, 4096));
}
