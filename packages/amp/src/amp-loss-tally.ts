// How the Amp reader reports what it cannot carry: each (code, message)
// pair once, with the path of its first occurrence and a count, so one
// report line never sums different kinds ("rejected-by-user" and
// "cancelled" runs are two lines). Plus the small own-property readers the
// reader modules share.
import {
  type ConversionOptions,
  type Json,
  type JsonObject,
  jsonPath,
  type Loss,
  quote,
  warn,
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

interface Entry {
  loss: Loss;
  message: string;
  path: string;
  count: number;
}

/** Counts losses while reading and reports each kind (code and message) once, with its first path. */
export class LossTally {
  readonly #seen = new Map<string, Entry>();
  add(loss: Loss, message: string, site: Site, count = 1, suffix?: readonly string[]): void {
    if (count <= 0) return;
    const key = `${loss.code}\u0000${message}`;
    const known = this.#seen.get(key);
    if (known) {
      known.count += count;
      return;
    }
    const path: (string | number)[] = [];
    if (site.message >= 0) path.push("messages", site.message);
    if (site.block >= 0) path.push("content", site.block);
    if (suffix !== undefined) path.push(...suffix);
    this.#seen.set(key, { loss, message, path: jsonPath(path), count });
  }
  flush(options: ConversionOptions | undefined): void {
    for (const { loss, message, path, count } of this.#seen.values())
      warn(options, loss, message, path, count);
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
