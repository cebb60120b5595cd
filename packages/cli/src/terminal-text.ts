// Text from a session (titles, directories, messages, tool output, thinking,
// file names) is untrusted: printed raw, an ESC, CSI or OSC sequence in it
// could move the cursor, rewrite the screen, set the window title, write the
// clipboard or hide a link, and a bidi override could make a line read in
// another order than it runs. Everything txcript prints for a person passes
// through `terminalSafe`: those characters become visible marks (ESC → ␛,
// U+202E → <U+202E>), newlines and tabs stay. See docs/security.md.

/**
 * The characters a terminal acts on or that reorder text: C0 controls but
 * tab and newline, DEL, C1 controls (U+0080–U+009F, whose U+009B is a
 * one-byte CSI), the bidi embeddings and overrides (U+202A–U+202E) and the
 * bidi isolates (U+2066–U+2069).
 */
const unsafeForTerminal = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function mark(character: string): string {
  const code = character.codePointAt(0) as number;
  // C0 and DEL have visible pictures of their own (U+2400–U+241F, U+2421).
  if (code < 0x20) return String.fromCodePoint(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  return `<U+${code.toString(16).toUpperCase().padStart(4, "0")}>`;
}

/** `text` with every character a terminal could act on shown as a visible mark. */
export function terminalSafe(text: string): string {
  // A Windows line end is a line end, not a carriage return over the line.
  return text.replace(/\r\n/g, "\n").replace(unsafeForTerminal, mark);
}

/** `value` with every string in it (keys too) made terminal-safe; other values as they are. */
export function terminalSafeDeep<T>(value: T): T {
  // With a stack of its own, not recursion: a tool input nested 100,000 deep is a session too.
  const copy = (item: unknown): unknown => {
    if (typeof item === "string") return terminalSafe(item);
    if (Array.isArray(item)) return new Array(item.length);
    if (item !== null && typeof item === "object") return {};
    return item;
  };
  const root = copy(value);
  const pending: [unknown, unknown][] = [[value, root]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [from, to] = next;
    if (Array.isArray(from)) {
      from.forEach((item, index) => {
        const out = copy(item);
        (to as unknown[])[index] = out;
        if (out !== null && typeof out === "object") pending.push([item, out]);
      });
    } else if (from !== null && typeof from === "object") {
      for (const [key, item] of Object.entries(from)) {
        const out = copy(item);
        (to as Record<string, unknown>)[terminalSafe(key)] = out;
        if (out !== null && typeof out === "object") pending.push([item, out]);
      }
    }
  }
  return root as T;
}

/**
 * JSON text for a terminal: the characters JSON.stringify leaves raw inside
 * strings (DEL, C1, bidi controls) written as \u escapes, so the text parses
 * to the same value and prints nothing a terminal acts on.
 */
export function terminalSafeJson(json: string): string {
  return json.replace(unsafeForTerminal, (character) => {
    const code = character.codePointAt(0) as number;
    return `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
