// Long text in a <pre>, cut: the first lines show, the rest waits behind a
// "show all" <details> (so the page needs no script and nothing is lost:
// the whole text is in the file). Also the JSON preview that never throws.
import { escapeHtml } from "./html-escape.js";

export interface CutLimits {
  lines: number;
  chars: number;
}

export const outputLimits: CutLimits = { lines: 30, chars: 3000 };

/** Where to cut `text` so at most `limits` show, or undefined when it fits. */
function cutPoint(text: string, limits: CutLimits): number | undefined {
  let at = 0;
  for (let line = 0; line < limits.lines; line += 1) {
    const next = text.indexOf("\n", at);
    if (next === -1) {
      at = text.length;
      break;
    }
    at = next + 1;
  }
  if (at >= text.length && text.length <= limits.chars) return undefined;
  let cut = Math.min(at, limits.chars);
  // Never split a surrogate pair.
  const code = text.charCodeAt(cut);
  if (code >= 0xdc00 && code <= 0xdfff) cut -= 1;
  return cut > 0 && cut < text.length ? cut : undefined;
}

function lineCount(text: string): number {
  let count = 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count += 1;
  return count;
}

/** `text` in a <pre class="…">, with everything past the limits behind "show all". */
export function cutPre(text: string, className = "", limits: CutLimits = outputLimits): string {
  const classes = className === "" ? "" : ` class="${className}"`;
  const cut = cutPoint(text, limits);
  if (cut === undefined) return `<pre${classes}>${escapeHtml(text)}</pre>`;
  const rest = text.slice(cut);
  const more = rest.includes("\n")
    ? `${lineCount(rest.endsWith("\n") ? rest.slice(0, -1) : rest)} more lines`
    : `${rest.length} more characters`;
  return (
    `<div class="cut"><pre${classes}>${escapeHtml(text.slice(0, cut))}</pre>` +
    `<details class="show-all"><summary>show all (${more})</summary><pre${classes}>${escapeHtml(rest)}</pre></details></div>`
  );
}

/** Pretty JSON for display; hostile depth shows as a note instead of throwing. */
export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? "undefined";
  } catch {
    return "(nested too deeply to show)";
  }
}

/** First line of `text`, cut to `max` characters, for a summary line. */
export function firstLine(text: string, max = 120): string {
  const line = text.trimStart().split("\n", 1)[0] ?? "";
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

export { lineCount };
