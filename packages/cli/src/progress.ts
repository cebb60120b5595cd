// A one-line progress bar for batch conversion, drawn on stderr only when
// it is a terminal (pipes and CI logs get just the summary).
import type { Io } from "./io.js";

export class Progress {
  readonly #io: Io;
  readonly #total: number;
  readonly #enabled: boolean;
  #drawn = false;

  constructor(io: Io, total: number) {
    this.#io = io;
    this.#total = total;
    // A total of 0 turns it off (--quiet, --json).
    this.#enabled = total > 0 && io.stderr.isTTY === true;
  }

  update(done: number, label: string): void {
    if (!this.#enabled) return;
    const width = 24;
    const filled = Math.round((done / Math.max(1, this.#total)) * width);
    const bar = `${"█".repeat(filled)}${"░".repeat(width - filled)}`;
    const columns = (this.#io.stderr as { columns?: number }).columns || 80;
    const line = `${bar} ${done}/${this.#total} ${label}`.slice(0, Math.max(10, columns - 1));
    this.#io.stderr.write(`\r\u001b[K${line}`);
    this.#drawn = true;
  }

  clear(): void {
    if (!this.#drawn) return;
    this.#io.stderr.write("\r\u001b[K");
    this.#drawn = false;
  }
}

/** Inputs past this size get a status line on a terminal while they are read and converted. */
export const bigInputBytes = 50 * 2 ** 20;

let statusShown: Io["stderr"] | undefined;

/**
 * One status line on a terminal for a single big input (`reading big.jsonl
 * (612 MB)…`): the conversion after it runs in one piece, so the line stays
 * until the command ends (`clearStatus`) or its first output is printed.
 */
export function bigInputStatus(io: Io, name: string, bytes: number): void {
  if (bytes <= bigInputBytes || io.stderr.isTTY !== true) return;
  io.stderr.write(`\r\u001b[Kreading ${name} (${Math.round(bytes / 2 ** 20)} MB)…`);
  statusShown = io.stderr;
}

export function clearStatus(): void {
  statusShown?.write("\r\u001b[K");
  statusShown = undefined;
}
