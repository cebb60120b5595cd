// Where a command's result goes: stdout, or a file written atomically that
// is never clobbered without --force. Loss warnings go to stderr with counts.
import * as path from "node:path";
import { makeDirectory, type Warning, writeFileAtomic } from "@txcript/core";
import { type Io, write } from "./io.js";
import { lossLines, type ReportSettings } from "./losses.js";
import { clearStatus } from "./progress.js";
import { terminalSafe } from "./terminal-text.js";

const defaults: ReportSettings = { losses: "summary", quiet: false, json: false };

export async function writeOutput(
  io: Io,
  text: string,
  output: string | undefined,
  force: boolean,
  settings: ReportSettings = defaults,
): Promise<void> {
  if (output === undefined || output === "-") {
    await write(io.stdout, text);
    return;
  }
  const target = path.resolve(io.cwd, output);
  await makeDirectory(path.dirname(target));
  await writeFileAtomic(target, text, { overwrite: force });
  await note(io, settings, `wrote ${output}`);
}

/** A progress or outcome line on stderr, unless --quiet or --json. */
export async function note(io: Io, settings: ReportSettings, line: string): Promise<void> {
  clearStatus();
  if (settings.quiet || settings.json) return;
  // Notes name paths, ids and directories a session recorded: made safe for the terminal.
  await write(io.stderr, `txcript: ${terminalSafe(line)}\n`);
}

/** The loss report on stderr (see losses.ts); `file` names the input in a batch. */
export async function printWarnings(
  io: Io,
  warnings: Warning[],
  settings: ReportSettings = defaults,
  file?: string,
): Promise<void> {
  clearStatus();
  if (settings.quiet || settings.json) return;
  const lines = lossLines(warnings, settings.losses);
  if (lines.length === 0) return;
  const prefix = file === undefined ? "txcript: " : `txcript: ${file}: `;
  const [first, ...rest] = lines;
  await write(
    io.stderr,
    terminalSafe(`${prefix}${first}\n${rest.map((line) => `${line}\n`).join("")}`),
  );
}
