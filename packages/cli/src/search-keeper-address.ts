// Where the search keeper (search-keeper.ts) listens, computed from the
// environment alone with node's built-ins, the store roots and the index's
// file name: the client (search-client.ts) runs this on every `txcript
// search` before anything else is loaded.
//
// A keeper serves one configuration: its socket is named after a hash of the
// txcript version, the index file, every store root and every other TXCRIPT_
// setting, so a search made with another HOME, CODEX_HOME, index or limit
// never reaches a keeper started for different ones (and the request carries
// that configuration whole, which the keeper checks: a hash that collided
// would only send the search back to run by itself). The hash is FNV-1a over
// 64 bits, not node:crypto, whose loading alone cost ~4 ms of a search here. The socket lives in a
// directory only the user can enter ($XDG_RUNTIME_DIR/txcript, else
// <tmpdir>/txcript-<uid>, made 0700 and checked to be the user's own before
// every use): a keeper hands out session text to whoever connects.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type StoreRoot, storeRoots } from "@txcript/harnesses/roots";
import { defaultIndexFile } from "@txcript/search";

/** What the fast path and the keeper answer: `search <words…> [--json]`. */
export interface FastArguments {
  query: string;
  json: boolean;
}

/** The query and --json of arguments the fast path takes (after `search`); undefined for any other. */
export function fastSearchArguments(args: readonly string[]): FastArguments | undefined {
  const words: string[] = [];
  let json = false;
  for (const arg of args) {
    if (arg === "--json" && !json) json = true;
    else if (arg === "" || arg.startsWith("-")) return undefined;
    else words.push(arg);
  }
  return words.length === 0 ? undefined : { query: words.join(" "), json };
}

export interface KeeperAddress {
  /** The directory holding the socket (private to the user). */
  dir: string;
  socket: string;
  indexFile: string;
  roots: StoreRoot[];
  /** What the socket's name is a hash of: the request carries it, the keeper compares it. */
  config: string;
}

/**
 * TXCRIPT_SEARCH_KEEPER: "0" never asks or starts a keeper; "only" (for tests) asks one and
 * exits 125 when none answers, starting none; anything else asks one, and starts one after a
 * search it did not answer.
 */
export type KeeperMode = "off" | "only" | "on";

export function keeperMode(env: Record<string, string | undefined>): KeeperMode {
  const value = env.TXCRIPT_SEARCH_KEEPER;
  if (value === "0" || value === "false") return "off";
  return value === "only" ? "only" : "on";
}

/** Unix sockets take paths of at most 107 bytes on Linux. */
const maxSocketPath = 100;

/**
 * The keeper's address for this environment, or undefined where there is none: off, or not on
 * Linux (a change is queued by inotify before the write that made it returns; elsewhere the
 * watchers node has report changes late, so a search could answer from an index a moment old).
 */
export function keeperAddress(
  env: Record<string, string | undefined>,
  version: string,
): KeeperAddress | undefined {
  if (process.platform !== "linux" || keeperMode(env) === "off") return undefined;
  const indexFile = path.resolve(env.TXCRIPT_SEARCH_INDEX ?? defaultIndexFile(env));
  const roots = storeRoots(env);
  const settings = Object.keys(env)
    .filter(
      (key) =>
        key.startsWith("TXCRIPT_") &&
        !key.startsWith("TXCRIPT_SEARCH_KEEPER") &&
        key !== "TXCRIPT_SEARCH_FAST",
    )
    .sort()
    .map((key) => [key, env[key]]);
  const config = JSON.stringify([version, indexFile, roots, settings]);
  const key = fnv1a64(config);
  const runtime = env.XDG_RUNTIME_DIR;
  const dir =
    runtime !== undefined && path.isAbsolute(runtime)
      ? path.join(runtime, "txcript")
      : path.join(os.tmpdir(), `txcript-${process.getuid?.() ?? "user"}`);
  const socket = path.join(dir, `search-${key}.sock`);
  if (Buffer.byteLength(socket) > maxSocketPath) return undefined;
  return { dir, socket, indexFile, roots, config };
}

/** FNV-1a, 64 bits, over a text's UTF-16 code units: 16 hex digits. */
export function fnv1a64(text: string): string {
  const mask = (1n << 64n) - 1n;
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & mask;
  }
  return hash.toString(16).padStart(16, "0");
}

/**
 * Whether `dir` is a directory of this user's that nobody else can enter (made so first when
 * `create`): a socket in any other is neither used nor made.
 */
export function privateDirectory(dir: string, create: boolean): boolean {
  if (create) {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch {
      return false;
    }
  }
  const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
  return (
    stat?.isDirectory() === true && stat.uid === process.getuid?.() && (stat.mode & 0o077) === 0
  );
}
