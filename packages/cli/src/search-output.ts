// What `txcript search` prints for its hits: the JSON array with --json,
// else one line per hit and its snippet (matches highlighted on a colour
// terminal), or a note on stderr when nothing matches. Shared by the
// command and the fast path (search-fast.ts), so both print the same.
import type { SearchHit } from "@txcript/search";
import { type Io, useColor, write } from "./io.js";
import { terminalSafe, terminalSafeJson } from "./terminal-text.js";

export async function printHits(
  io: Io,
  query: string,
  hits: readonly SearchHit[],
  json: boolean,
): Promise<void> {
  if (json) {
    await write(io.stdout, `${terminalSafeJson(JSON.stringify(hits, null, 2))}\n`);
    return;
  }
  if (hits.length === 0) {
    await write(io.stderr, `txcript: no session matches ${terminalSafe(JSON.stringify(query))}\n`);
    return;
  }
  const color = useColor(io, "stdout");
  const mark = (text: string) =>
    color ? text.replaceAll("«", "\u001b[1;33m").replaceAll("»", "\u001b[0m") : text;
  // Titles, ids and snippets come from sessions: made safe before the highlight is painted.
  const lines = hits.map(
    (hit) =>
      `${terminalSafe(`${hit.harness}  ${hit.id}#${hit.ordinal}  ${(hit.title ?? "(untitled)").replace(/\n/g, " ")}  ${hit.updatedAt.slice(0, 16).replace("T", " ")}`)}\n    ${mark(terminalSafe(hit.snippet).replace(/\n/g, "\n    "))}`,
  );
  await write(io.stdout, `${lines.join("\n")}\n`);
}
