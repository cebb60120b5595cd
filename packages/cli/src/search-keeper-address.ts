// Where the search keeper (search-keeper.ts) listens, computed from the
// environment alone with node's built-ins, the store roots and the index's
// file name: the client (search-client.ts) runs this on every `txcript
// search` before anything else is loaded.
//
// The keeper is opt-in (TXCRIPT_SEARCH_KEEPER=1): a background process a
// user did not start is not one every search leaves behind. There is at most
// one keeper per user and index: its socket is named after a hash of the
// index file alone (search-keeper.ts holds a lock file beside it), not of
// every setting, so searches with other TXCRIPT_ values never start another.
// The request carries the configuration the answer depends on (the txcript
// version, the index, every store root, the settings that change what is
// read), which the keeper compares with its own: another configuration's
// search runs by itself (and a keeper of another version steps aside). The
// hash is FNV-1a over 64 bits, not node:crypto, whose loading alone cost
// ~4 ms of a search here. The socket lives in a directory only the user can
// enter ($XDG_RUNTIME_DIR/txcript, else <tmpdir>/txcript-<uid>, made 0700
// and checked to be the user's own before every use): a keeper hands out
// session text to whoever connects. One that is not (another user made it
// first, or its mode lets others in) turns the keeper off with a warning.
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
  /** The keeper's lock file: who serves this socket (search-keeper.ts). */
  lock: string;
  /** What an answer depends on: the request carries it, the keeper compares it. */
  config: string;
}

/**
 * TXCRIPT_SEARCH_KEEPER: "1" (or "true", "on") asks a keeper, and starts one after a search it
 * did not answer; "only" (for tests) asks one and exits 125 when none answers, starting none;
 * unset or anything else: no keeper (the default).
 */
export type KeeperMode = "off" | "only" | "on";

export function keeperMode(env: Record<string, string | undefined>): KeeperMode {
  const value = env.TXCRIPT_SEARCH_KEEPER;
  if (value === "only") return "only";
  return value === "1" || value === "true" || value === "on" ? "on" : "off";
}

/** The settings that change what a search reads or says (the others are not the keeper's business). */
const answerSettings = ["TXCRIPT_MAX_INPUT_BYTES", "TXCRIPT_STREAM_MIN_BYTES", "TXCRIPT_DEBUG"];

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
  const settings = answerSettings.map((key) => [key, env[key] ?? null]);
  const config = JSON.stringify([version, indexFile, roots, settings]);
  const key = fnv1a64(indexFile);
  const runtime = env.XDG_RUNTIME_DIR;
  const dir =
    runtime !== undefined && path.isAbsolute(runtime)
      ? path.join(runtime, "txcript")
      : path.join(os.tmpdir(), `txcript-${process.getuid?.() ?? "user"}`);
  const socket = path.join(dir, `search-${key}.sock`);
  if (Buffer.byteLength(socket) > maxSocketPath) return undefined;
  return { dir, socket, lock: path.join(dir, `search-${key}.lock`), indexFile, roots, config };
}

/** A process's start time (/proc/<pid>/stat, field 22): with the pid, it names one process. */
export function startTimeOf(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

export function readLock(lock: string): string | undefined {
  try {
    return fs.readFileSync(lock, "utf8");
  } catch {
    return undefined;
  }
}

/** Whether the process a lock names still runs (a stopped one does). */
export function holderLives(content: string): boolean {
  const [pid, started] = content.trim().split(" ");
  const number = Number(pid);
  if (!Number.isInteger(number) || number <= 0) return false;
  return started !== undefined && startTimeOf(number) === started;
}

/** Whether a living keeper holds the lock file `lock` (then starting another is no use). */
export function lockHeld(lock: string): boolean {
  const content = readLock(lock);
  return content !== undefined && holderLives(content);
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
  return directoryProblem(dir, create) === undefined;
}

/**
 * What is wrong with `dir` as the keeper's socket directory (made first when `create`):
 * undefined when it is a directory of this user's that nobody else can enter; "missing" when it
 * does not exist (and was not to be made); else a sentence for the user.
 */
export function directoryProblem(dir: string, create: boolean): string | undefined {
  if (create) {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      return `${dir} cannot be made (${(error as NodeJS.ErrnoException).code ?? "error"})`;
    }
  }
  const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (stat === undefined) return "missing";
  if (!stat.isDirectory()) return `${dir} is not a directory`;
  const uid = process.getuid?.();
  if (stat.uid !== uid) return `${dir} belongs to another user (uid ${stat.uid}, not ${uid})`;
  if ((stat.mode & 0o077) !== 0)
    return `${dir} lets other users in (mode ${(stat.mode & 0o777).toString(8)}, not 700)`;
  return undefined;
}
