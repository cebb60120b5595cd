// Read-back before success: after `continue` saves a session, it is loaded
// again through the target's own store and codec and compared, through
// Common, with what was meant (the copy as the target's documented
// normalization keeps it): messages, blocks in order, texts, tool calls
// paired with their results. On a mismatch the written session is removed
// and the command fails with the first difference.
import {
  type SavedSession,
  type SignatureEntry,
  type Store,
  signature,
  type Transcript,
  TxcriptError,
} from "@txcript/core";
import type { Harness } from "./harnesses.js";

function describe(entry: SignatureEntry | undefined): string {
  if (entry === undefined) return "nothing";
  const text = JSON.stringify(entry);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/** The first place two signatures differ, in words; undefined when they agree. */
export function firstDifference(
  meant: readonly SignatureEntry[],
  got: readonly SignatureEntry[],
): string | undefined {
  const length = Math.max(meant.length, got.length);
  for (let index = 0; index < length; index += 1) {
    const a = meant[index];
    const b = got[index];
    if (JSON.stringify(a) !== JSON.stringify(b))
      return `block ${index + 1} of ${meant.length}: expected ${describe(a)}, read back ${describe(b)}`;
  }
  return undefined;
}

export async function verifyWritten(
  target: Harness,
  store: Store<unknown>,
  saved: SavedSession,
  meant: Transcript,
): Promise<void> {
  let difference: string | undefined;
  try {
    const native = await store.load(saved.id);
    const back = target.codec.toCommon(native, target.readOptions?.({}) ?? {});
    difference = firstDifference(signature(target.project(meant)), signature(back));
  } catch (error) {
    difference = `it could not be read back: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (difference === undefined) return;
  await store.delete(saved.id).catch(() => undefined);
  throw new TxcriptError(
    "MISMATCH",
    `the ${target.id} session written to ${saved.path} does not read back as the conversation: ${difference}; it was removed`,
    {
      hint: "this is a bug in txcript's writer: please report it with the input (--debug shows more)",
    },
  );
}
