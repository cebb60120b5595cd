// Read-side losses, counted while a session is read and reported once per
// kind at the end, so a long session says "left out 40 file-history-snapshot
// lines" once, and each kind a code covers keeps its own message.
import { type ConversionOptions, type Loss, warn } from "@txcript/core";

export class LossTally {
  readonly #counts = new Map<string, { loss: Loss; message: string; count: number }>();

  add(loss: Loss, message: string, count = 1): void {
    if (count <= 0) return;
    const key = `${loss.code}\u0000${message}`;
    const known = this.#counts.get(key);
    if (known === undefined) this.#counts.set(key, { loss, message, count });
    else known.count += count;
  }

  report(options: ConversionOptions | undefined): void {
    for (const { loss, message, count } of this.#counts.values())
      warn(options, loss, message, undefined, count);
  }
}
