// One conversion in stages that let go of what they are done with: the input
// text once loaded, the source native body once read into Common, the
// transcript once the target body is built, and, for JSON-lines targets, the
// output is printed a slice of lines at a time instead of as one string. A
// big session then never holds all of its forms at once (see bench/NOTES.md).
// The pipeline itself is core's (convertSession); the CLI gives it the
// located input and writes the slices.
import {
  type AtomicContent,
  type ConvertedSession,
  type ConvertSessionOptions,
  convertSession,
} from "@txcript/core";
import type { Harness } from "./harnesses.js";
import { type Input, sessionSource } from "./input.js";

/** What a conversion reads (an Input): its text is taken, and cleared once loaded. */
export type ConversionSource = Input;

export interface Converted extends ConvertedSession {
  /**
   * Text that goes before the slices, known once they have been iterated (a
   * target's init line written last: core's HeadLastWriter). Only on the
   * streaming path, which writes to a file.
   */
  head?: () => string;
}

/** What writeFileAtomic is given for a conversion: its slices, or its head last when it has one. */
export function atomicContent(converted: Converted): AtomicContent {
  const { head, slices } = converted;
  return head === undefined ? slices : { rest: slices, head };
}

/**
 * Convert `source` into `to`'s format (core's convertSession). Takes
 * `source.text` (it is "" afterwards), so the caller keeps no copy. With
 * `lineByLine` and a target that streams its text (`serializeChunks`), the
 * pieces are printed as the slices are iterated.
 */
export type ConvertSourceOptions = ConvertSessionOptions;

export function convertSource(
  source: ConversionSource,
  to: Harness,
  options: ConvertSourceOptions = {},
): Promise<Converted> {
  return convertSession(sessionSource(source, true), to, options);
}
