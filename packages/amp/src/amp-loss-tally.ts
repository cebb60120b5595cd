// How the Amp reader reports what it cannot carry: each (code, message)
// pair once, with the path of its first occurrence and a count, so one
// report line never sums different kinds ("rejected-by-user" and
// "cancelled" runs are two lines). Plus the small own-property readers the
// reader modules share.
import {
  type ConversionOptions,
  LossTally as CoreLossTally,
  type Json,
  type JsonObject,
  jsonPath,
  type Loss,
  quote,
} from "@txcript/core";

/**
 * Where a loss occurred: `messages[message].content[block]` (an index of -1
 * leaves its part out). Passed as numbers, not as a path array, because
 * only the first occurrence of each kind keeps its path: a path built per
 * block would be garbage for every other block.
 */
export interface Site {
  message: number;
  block: number;
}

export const threadSite: Site = { message: -1, block: -1 };

/**
 * Counts losses while reading and reports each kind (code and message) once,
 * with its first site: core's LossTally, given Amp's sites.
 */
export class LossTally {
  readonly #tally = new CoreLossTally();
  add(loss: Loss, message: string, site: Site, count = 1, suffix?: readonly string[]): void {
    this.#tally.add(loss, message, count, () => {
      const path: (string | number)[] = [];
      if (site.message >= 0) path.push("messages", site.message);
      if (site.block >= 0) path.push("content", site.block);
      if (suffix !== undefined) path.push(...suffix);
      return jsonPath(path);
    });
  }
  flush(options: ConversionOptions | undefined): void {
    this.#tally.flush(options);
  }
}

/**
 * An input value as a loss message shows it: a string cut by core's
 * `quote`, a container by its kind only. Never serialized: a value nested
 * 100,000 deep would overflow the stack, and a long one would flood the report.
 */
export function describeValue(value: Json | undefined): string {
  if (typeof value === "string") return quote(value, 40);
  if (Array.isArray(value)) return "an array";
  if (value === null || value === undefined) return "no";
  if (typeof value === "object") return "an object";
  return typeof value === "number" ? "a number" : "a boolean";
}

export function countOthers(object: JsonObject, known: readonly string[]): number {
  let others = 0;
  for (const key of Object.keys(object)) if (!known.includes(key)) others += 1;
  return others;
}

/** A token count: a non-negative safe integer. */
export function isCount(value: Json | undefined): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

export { objectAt, stringAt } from "@txcript/core";
