// UUID v5 of a name in this package's namespace, the same bytes as core's
// `uuidV5(name, claudeCodeNamespace)` but with one one-shot SHA-1 over a
// reused buffer: the writer derives one per line and two more per assistant
// message, and a Hash object per call showed in its profile.
import * as crypto from "node:crypto";
import { uuidV5 } from "@txcript/core";
import { claudeCodeNamespace } from "./claude-code-paths.js";

type OneShotHash = (algorithm: string, data: Uint8Array, encoding: "hex") => string;
// `crypto.hash` arrived in Node 20.12; earlier 20.x take core's uuidV5.
const oneShot = (crypto as unknown as { hash?: OneShotHash }).hash;

const namespaceLength = 16;
let scratch = Buffer.alloc(namespaceLength + 256);
Buffer.from(claudeCodeNamespace.replaceAll("-", ""), "hex").copy(scratch, 0);

/** The 32 hex digits of the UUID (no dashes). */
export function claudeUuidHex(name: string): string {
  if (oneShot === undefined) return uuidV5(name, claudeCodeNamespace).replaceAll("-", "");
  const most = namespaceLength + name.length * 3;
  if (most > scratch.length) {
    const grown = Buffer.alloc(most);
    scratch.copy(grown, 0, 0, namespaceLength);
    scratch = grown;
  }
  const length = namespaceLength + scratch.write(name, namespaceLength, "utf8");
  const hex = oneShot("sha1", scratch.subarray(0, length), "hex");
  // Version 5 in the 13th digit, the RFC variant (10xx) in the 17th.
  const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 12)}5${hex.slice(13, 16)}${variant}${hex.slice(17, 32)}`;
}

/** The UUID, lower-case with dashes. */
export function claudeUuid(name: string): string {
  const hex = claudeUuidHex(name);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
