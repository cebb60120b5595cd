// OpenCode's identifiers: `ses_` / `msg_` / `prt_` + 12 hex digits of time
// (the low 48 bits of epoch-ms × 4096 + a counter; bit-inverted for
// sessions, so newer sessions sort first) + 14 base62 characters. OpenCode
// draws those 14 at random; txcript derives them from a UUIDv5 of a name,
// so writing the same transcript twice gives the same ids.
import { uuidV5In } from "@txcript/core";

/** The namespace of the UUIDv5 names the random tails are derived from. */
export const OPENCODE_ID_NAMESPACE = "4f1b6c2e-8a3d-5e7f-9b0c-1d2e3f4a5b6c";

const tail = uuidV5In(OPENCODE_ID_NAMESPACE);
const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const low48 = (1n << 48n) - 1n;

/** An id in OpenCode's own form, as its session list, export and import expect. */
export const opencodeIdPattern = /^(ses|msg|prt)_[0-9a-f]{12}[0-9A-Za-z]{14}$/;

/** Whether `id` is a session id in OpenCode's own form. */
export function isOpencodeSessionId(id: string): boolean {
  return id.startsWith("ses_") && opencodeIdPattern.test(id);
}

function tailOf(name: string): string {
  let value = BigInt(`0x${tail(name).replaceAll("-", "")}`);
  let text = "";
  for (let index = 0; index < 14; index += 1) {
    text += base62[Number(value % 62n)];
    value /= 62n;
  }
  return text;
}

function timeHex(value: bigint): string {
  return (value & low48).toString(16).padStart(12, "0");
}

/**
 * The session id txcript writes for a Common session id: the id itself when
 * it already has OpenCode's form, else `ses_` + the inverted time of the
 * session's start + a tail derived from the id.
 */
export function opencodeSessionId(id: string, createdMs: number): string {
  if (isOpencodeSessionId(id)) return id;
  return `ses_${timeHex(~(BigInt(Math.max(0, Math.trunc(createdMs))) * 4096n + 1n))}${tailOf(`session:${id}`)}`;
}

/**
 * Message and part ids for one session, strictly increasing in the order
 * they are drawn (OpenCode orders a message's parts by id), each no earlier
 * than the time it is drawn for.
 */
export class OpencodeIds {
  #last = 0n;
  readonly #session: string;

  constructor(sessionId: string) {
    this.#session = sessionId;
  }

  next(prefix: "msg" | "prt", ms: number, name: string): string {
    const floor = BigInt(Math.max(0, Math.trunc(ms))) * 4096n + 1n;
    this.#last = floor > this.#last ? floor : this.#last + 1n;
    return `${prefix}_${timeHex(this.#last)}${tailOf(`${this.#session}:${prefix}:${name}`)}`;
  }
}
