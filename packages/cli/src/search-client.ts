// `txcript search <words…> [--json]` asks a running search keeper first when
// TXCRIPT_SEARCH_KEEPER=1 asks for one (search-keeper.ts; off by default): it holds the index open and watches every store's
// directories, so it answers without the ~7,000 stats and the module loading
// a search otherwise makes. This module is all a search answered by a keeper
// loads (node's built-ins, the store roots, the index's file name).
//
// The protocol, one JSON object per line over a Unix socket: the client sends
// the query, --json and what decides colour and progress (whether its stdout
// and stderr are terminals, FORCE_COLOR, NO_COLOR); the keeper says it took
// the query ({"ack":1}) at once, may send stderr text as it goes ({"err":…}),
// and ends with {"exit":code,"out":…} or {"fallback":1} (it cannot answer:
// the search runs here as if no keeper were running). No ack within a
// second (a keeper stopped or wedged) is a fallback too.
import * as net from "node:net";
import type { Writable } from "node:stream";
import {
  directoryProblem,
  fastSearchArguments,
  type KeeperAddress,
  keeperAddress,
  keeperMode,
  lockHeld,
} from "./search-keeper-address.js";

export { keeperMode };

/** The request the keeper reads (search-keeper.ts). */
export interface KeeperRequest {
  v: 1;
  /** The client's configuration (KeeperAddress.config): another's keeper sends it back. */
  config: string;
  query: string;
  json: boolean;
  stdoutTTY: boolean;
  stderrTTY: boolean;
  FORCE_COLOR?: string;
  NO_COLOR?: string;
}

let warned = false;

/**
 * Whether the keeper's socket directory can be used (made first when `create`). One that is
 * not the user's own, or that others can enter (another user made it first), turns the keeper
 * off, said once on stderr: silently off, a user who asked for a keeper would not know why.
 */
function usableDirectory(address: KeeperAddress, create: boolean, stderr: Writable): boolean {
  const problem = directoryProblem(address.dir, create);
  if (problem === undefined) return true;
  if (problem !== "missing" && !warned) {
    warned = true;
    stderr.write(
      `txcript: warning: no search keeper: ${problem}; remove it, or set XDG_RUNTIME_DIR to a directory of your own\n`,
    );
  }
  return false;
}

/** How long the client waits for a keeper to take its query. */
const ackWithinMs = 1_000;

interface Streams {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
}

/**
 * Have a keeper answer `search <args>`: the exit code once it printed the answer, or undefined
 * when no keeper answered (none running, another kind of search, the keeper cannot answer it).
 */
export async function askKeeper(
  args: readonly string[],
  env: Record<string, string | undefined>,
  version: string,
  streams: Streams,
): Promise<number | undefined> {
  const wanted = fastSearchArguments(args);
  if (wanted === undefined) return undefined;
  const address = keeperAddress(env, version);
  if (address === undefined || !usableDirectory(address, false, streams.stderr)) return undefined;
  const request: KeeperRequest = {
    v: 1,
    config: address.config,
    query: wanted.query,
    json: wanted.json,
    stdoutTTY: streams.stdout.isTTY === true,
    stderrTTY: streams.stderr.isTTY === true,
    ...(env.FORCE_COLOR === undefined ? {} : { FORCE_COLOR: env.FORCE_COLOR }),
    ...(env.NO_COLOR === undefined ? {} : { NO_COLOR: env.NO_COLOR }),
  };
  const answer = await exchange(address.socket, request, streams.stderr);
  if (answer === undefined) return undefined;
  await new Promise<void>((resolve) => {
    if (answer.out === "") resolve();
    // A closed pipe (`txcript search … | head`) is the reader's choice, as main treats it.
    else streams.stdout.write(answer.out, () => resolve());
  });
  return answer.exit;
}

/** Send the request; the keeper's exit code and stdout, or undefined for a fallback. */
function exchange(
  socket: string,
  request: KeeperRequest,
  stderr: Writable,
): Promise<{ exit: number; out: string } | undefined> {
  return new Promise((resolve) => {
    const connection = net.createConnection(socket);
    let settled = false;
    const settle = (value: { exit: number; out: string } | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      connection.destroy();
      resolve(value);
    };
    const timer = setTimeout(() => settle(undefined), ackWithinMs);
    let buffered = "";
    connection.setEncoding("utf8");
    connection.on("error", () => settle(undefined));
    connection.on("close", () => settle(undefined));
    connection.on("connect", () => connection.write(`${JSON.stringify(request)}\n`));
    connection.on("data", (chunk: string) => {
      buffered += chunk;
      let newline = buffered.indexOf("\n");
      while (newline >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf("\n");
        let frame: { ack?: 1; err?: string; exit?: number; out?: string; fallback?: 1 };
        try {
          frame = JSON.parse(line);
        } catch {
          settle(undefined);
          return;
        }
        if (frame.ack === 1) clearTimeout(timer);
        else if (typeof frame.err === "string") stderr.write(frame.err);
        else if (typeof frame.exit === "number")
          settle({ exit: frame.exit, out: typeof frame.out === "string" ? frame.out : "" });
        else settle(undefined);
      }
    });
  });
}

/**
 * Start a keeper for this environment in the background (detached, no terminal, nothing
 * inherited but the environment), after a search it did not answer. It exits by itself
 * (search-keeper.ts): idle, its index gone, or another keeper already listening.
 */
export async function startKeeper(
  args: readonly string[],
  env: Record<string, string | undefined>,
  version: string,
  bin: string | undefined,
  stderr: Writable = process.stderr,
): Promise<void> {
  if (bin === undefined || keeperMode(env) !== "on" || fastSearchArguments(args) === undefined)
    return;
  const address = keeperAddress(env, version);
  if (address === undefined || !usableDirectory(address, true, stderr)) return;
  // A keeper holds this index already (one of another configuration, or busy): it would exit.
  if (lockHeld(address.lock)) return;
  try {
    // Loaded here: a search the keeper answers starts no process.
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, [bin, "__search-keeper"], {
      detached: true,
      stdio: "ignore",
      env,
      // The search's own directory: a relative TXCRIPT_SEARCH_INDEX or store root names the
      // same files there, so the keeper's configuration is the search's.
      cwd: process.cwd(),
    });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // No keeper: the next search stats every store, as it would without one.
  }
}
