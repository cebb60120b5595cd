// Amp thread ids: `T-` + a lowercase UUID, the only shape the era-matched
// CLI reads (observed: `amp threads markdown` rejects anything else) and the
// only shape this package lets name a file. Foreign ids (a Claude session
// UUID, a stream-json session id) map deterministically into that shape.
import { quote, TxcriptError, uuidV5 } from "@txcript/core";

/**
 * The fixed UUIDv5 namespace of `ampThreadId`. Changing it would re-key
 * every converted thread, so it is part of the public contract.
 */
export const AMP_THREAD_ID_NAMESPACE = "2b7d0f3c-5e61-4a8e-9f1d-6c3a8b0e4d27";

const threadIdPattern = /^T-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** True for `T-` + a lowercase UUID, exactly. */
export function isAmpThreadId(id: string): boolean {
  return threadIdPattern.test(id);
}

/**
 * The Amp thread id for any session id: a valid Amp id is kept; anything
 * else becomes `T-` + the UUIDv5 of the whole id in AMP_THREAD_ID_NAMESPACE.
 */
export function ampThreadId(foreignId: string): string {
  if (isAmpThreadId(foreignId)) return foreignId;
  return `T-${uuidV5(foreignId, AMP_THREAD_ID_NAMESPACE)}`;
}

/**
 * Throw UNSAFE_PATH unless `id` may name a file in a threads directory: the
 * strict Amp id shape admits no separator, dot segment, NUL or length attack.
 */
export function assertSafeThreadId(id: string): void {
  if (!isAmpThreadId(id)) {
    throw new TxcriptError("UNSAFE_PATH", `not a safe Amp thread id: ${quote(id, 80)}`, {
      harness: "amp",
      hint: "expected T- followed by a lowercase UUID; ampThreadId(id) derives one from any id",
    });
  }
}
