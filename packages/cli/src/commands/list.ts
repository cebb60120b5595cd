// `txcript list`: every store's sessions, newest first. Discovery is cheap
// per store (no whole-file parses); files a store cannot read are counted
// and summarized on stderr, never fatal.
import * as path from "node:path";
import { type Discovered, type SkippedFile, TxcriptError } from "@txcript/core";
import { integerOption, type Parsed, stringOption } from "../args.js";
import { type Harness, harnessList, harnessNamed, loadRegistry, stores } from "../harnesses.js";
import { type Io, write } from "../io.js";
import { terminalSafe, terminalSafeJson } from "../terminal-text.js";

export async function listCommand(io: Io, { values }: Parsed): Promise<number> {
  const from = stringOption(values, "from");
  // --from H reads H's store alone, and loads H alone; else every store is read.
  const only = from === undefined ? undefined : await harnessNamed(from);
  if (only === undefined || !only.store) await loadRegistry();
  if (only && !only.store) {
    throw new TxcriptError("USAGE", `${only.id} keeps no sessions on disk`, {
      hint: `list reads the stores of ${harnessList()
        .filter((harness) => harness.store !== undefined)
        .map((harness) => harness.id)
        .join(", ")}`,
    });
  }
  const limit = integerOption(values, "limit", "list", 1);
  const cwdOption = stringOption(values, "cwd");
  const cwd = cwdOption === undefined ? undefined : path.resolve(io.cwd, cwdOption);
  const sessions: Discovered[] = [];
  const skipped: SkippedFile[] = [];
  for (const { harness, store } of only === undefined ? stores(io.env) : storeOf(only, io.env)) {
    if (only && harness !== only) continue;
    for await (const session of store.discover((file) => skipped.push(file))) {
      if (cwd !== undefined && (session.cwd === undefined || path.resolve(session.cwd) !== cwd))
        continue;
      sessions.push(session);
    }
  }
  sessions.sort(
    (left, right) =>
      right.updatedAt.localeCompare(left.updatedAt) || left.id.localeCompare(right.id),
  );
  const shown = limit === undefined ? sessions : sessions.slice(0, limit);
  if (values.json) await write(io.stdout, `${terminalSafeJson(JSON.stringify(shown, null, 2))}\n`);
  else await write(io.stdout, formatTable(shown));
  if (skipped.length > 0) {
    const first = skipped
      .slice(0, 3)
      .map((file) => `${file.path}: ${file.reason}`)
      .join("; ");
    await write(
      io.stderr,
      terminalSafe(
        `txcript: skipped ${skipped.length} unreadable file${skipped.length === 1 ? "" : "s"} (${first}${skipped.length > 3 ? "; …" : ""})`,
      ) + "\n",
    );
  }
  return 0;
}

function oneLine(text: string | undefined, max: number): string {
  const flat = terminalSafe((text ?? "").replace(/\s+/g, " ").trim());
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function formatTable(sessions: Discovered[]): string {
  if (sessions.length === 0) return "no sessions found\n";
  const rows = sessions.map((session) => [
    session.updatedAt.replace("T", " ").slice(0, 16),
    terminalSafe(session.harness),
    terminalSafe(session.id).replace(/\s/g, " "),
    session.messageCount === undefined ? "" : String(session.messageCount),
    oneLine(session.title, 50),
    oneLine(session.cwd, Number.POSITIVE_INFINITY),
  ]);
  const header = ["UPDATED", "HARNESS", "ID", "MSGS", "TITLE", "CWD"];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  return `${[header, ...rows]
    .map((row) =>
      row
        .map((cell, column) =>
          column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0),
        )
        .join("  ")
        .trimEnd(),
    )
    .join("\n")}\n`;
}

/** One harness's store, as `stores` gives it. */
function storeOf(harness: Harness, environment: Io["env"]): ReturnType<typeof stores> {
  return harness.store === undefined
    ? []
    : [
        {
          harness,
          store: harness.store(environment) as ReturnType<typeof stores>[number]["store"],
        },
      ];
}
