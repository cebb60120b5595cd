// Where a command's result goes: stdout, or a file written atomically that
// is never clobbered without --force. Loss warnings go to stderr with counts.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { type Warning, writeFileAtomic } from "@txcript/core";
import { type Io, write } from "./io.js";

export async function writeOutput(
  io: Io,
  text: string,
  output: string | undefined,
  force: boolean,
): Promise<void> {
  if (output === undefined || output === "-") {
    await write(io.stdout, text);
    return;
  }
  const target = path.resolve(io.cwd, output);
  await fs.mkdir(path.dirname(target), { recursive: true });
  await writeFileAtomic(target, text, { overwrite: force });
  await write(io.stderr, `txcript: wrote ${output}\n`);
}

/** One stderr line per kind of loss that occurred, with its count. */
export async function printWarnings(io: Io, warnings: Warning[], prefix = ""): Promise<void> {
  for (const warning of warnings) {
    const count = warning.count === 1 ? "" : `${warning.count} × `;
    await write(
      io.stderr,
      `txcript: ${prefix}loss: ${count}${warning.message} [${warning.code}]\n`,
    );
  }
}
