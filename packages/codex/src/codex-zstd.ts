// Rollout bytes to text: Codex may keep a rollout as `.jsonl.zst`, a zstd
// frame it reads transparently. Decoding uses fzstd (a maintained pure-JS
// zstd decoder from npm, no native build); plain bytes are UTF-8 text.

import { TxcriptError } from "@txcript/core";
import { Decompress, decompress } from "fzstd";
import { harness } from "./codex-schema.js";

/** Whether bytes start with the zstd frame magic number 0xFD2FB528 (little-endian). */
export function isZstd(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x28 &&
    bytes[1] === 0xb5 &&
    bytes[2] === 0x2f &&
    bytes[3] === 0xfd
  );
}

/** The text of rollout bytes: zstd frames are decompressed, anything else is read as UTF-8. */
export function rolloutText(bytes: Uint8Array, file?: string): string {
  if (!isZstd(bytes)) return new TextDecoder("utf-8").decode(bytes);
  try {
    return new TextDecoder("utf-8").decode(decompress(bytes));
  } catch (cause) {
    throw new TxcriptError(
      "INVALID_DOCUMENT",
      "the zstd-compressed rollout cannot be decompressed",
      {
        harness,
        ...(file === undefined ? {} : { location: { file } }),
        hint: "expected a complete zstd frame, as Codex writes .jsonl.zst",
        cause,
      },
    );
  }
}

/**
 * The first `limit` bytes of decompressed text from the start of a zstd
 * stream, feeding it chunk by chunk and stopping as soon as enough is out,
 * so discovery never inflates a whole compressed rollout.
 */
export function zstdHead(chunks: Iterable<Uint8Array>, limit: number): string {
  const out: Uint8Array[] = [];
  let size = 0;
  const stream = new Decompress((chunk) => {
    out.push(chunk);
    size += chunk.length;
  });
  try {
    for (const chunk of chunks) {
      stream.push(chunk);
      if (size >= limit) break;
    }
  } catch {
    // A cut or corrupt frame: keep what came out.
  }
  const joined = new Uint8Array(Math.min(size, limit));
  let offset = 0;
  for (const chunk of out) {
    if (offset >= joined.length) break;
    const piece = chunk.subarray(0, joined.length - offset);
    joined.set(piece, offset);
    offset += piece.length;
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(joined).replace(/\uFFFD$/, "");
}
