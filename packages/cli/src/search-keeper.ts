// The search keeper: a background process that holds the search index open
// and watches every directory of every store's saved snapshot (freshness.ts),
// so that a search answered by it (search-client.ts) needs no stat at all
// when nothing changed, and compares only the stores whose directories saw a
// change otherwise. Started by a search it did not answer (`txcript
// __search-keeper`, detached), on Linux only (search-keeper-address.ts).
//
// Why a watched store can be trusted without a stat: inotify queues an event
// on a directory for every file created, deleted, renamed or written in it
// before the system call that did it returns, so a change made before the
// search was started is in the queue when the query arrives; the keeper takes
// a query one turn after it arrives (setImmediate: every event read in the
// same poll is handled first) and compares every store any event touched,
// exactly as a search without a keeper compares all of them. A store it cannot
// watch (more directories than it watches, a network or FUSE file system
// whose changes made elsewhere raise no event, a watch refused) is compared on
// every query. After long work (events may have overflowed the kernel's queue)
// and every minute, every store is compared once more.
//
// It exits by itself: idle for TXCRIPT_SEARCH_KEEPER_IDLE seconds (600), its
// index replaced or deleted (a --reindex, a removed cache), its socket or
// lock taken or removed, a search of another txcript version, or another
// keeper already serving the index.
//
// One keeper per user and index: the lock file beside the socket
// (`search-<hash>.lock`, made with O_EXCL) names the process serving it (pid
// and start time, so a reused pid is not taken for it). Only the lock's
// holder makes or removes the socket; a lock whose process is gone is taken
// over, one whose process lives (even stopped) is left alone, and the new
// keeper exits. The socket is bound under a name of its own and renamed into
// place, because libuv unlinks a Unix socket's bound path when its server
// closes: bound at the shared name, a keeper closing after another took the
// name would remove the other's socket. A keeper removes the socket and the
// lock only while both are still its own.
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { Readable, Writable } from "node:stream";
import { SearchIndex } from "@txcript/search";
import type { Io } from "./io.js";
import type { KeeperRequest } from "./search-client.js";
import { answerFromIndex } from "./search-fast.js";
import {
  holderLives,
  type KeeperAddress,
  keeperAddress,
  privateDirectory,
  readLock,
  startTimeOf,
} from "./search-keeper-address.js";

/** Directories beyond which a store is compared on every query instead of watched. */
const maxWatchedDirectories = 20_000;
/** Work after which every store is compared again (inotify's queue may have overflowed). */
const longWorkMs = 1_000;
/** Every store is compared again at the first query after this long. */
const recheckAllMs = 60_000;
/** How often the keeper checks its index and socket are still its own. */
const checkEveryMs = 2_000;

// Network and FUSE file systems (statfs f_type): a change made by another machine raises no
// inotify event here, so a store on one is compared every time.
const unwatchable = new Set([
  0x6969, // NFS
  0xff534d42, // CIFS
  0xfe534d42, // SMB2
  0x517b, // SMB
  0x65735546, // FUSE
  0x564c, // NCP
  0x5346414f, // AFS
  0x00c36400, // CEPH
  0x1021997, // V9FS (9p)
]);

type Identity = string;

/** A file's device, inode and change time to the nanosecond: a file made in a freed inode differs. */
function identityOf(file: string): Identity | undefined {
  const stat = fs.statSync(file, { throwIfNoEntry: false, bigint: true });
  return stat === undefined ? undefined : `${stat.dev}:${stat.ino}:${stat.ctimeNs}`;
}

/**
 * Take the lock for this process: its content when taken, undefined when a living keeper holds
 * it. A lock whose holder is gone is moved aside and taken; one moved aside by mistake (another
 * keeper took the lock between our read and our move) is put back.
 */
function takeLock(lock: string): string | undefined {
  const mine = `${process.pid} ${startTimeOf(process.pid) ?? "?"}\n`;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      fs.writeFileSync(lock, mine, { flag: "wx", mode: 0o600 });
      return mine;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return undefined;
    }
    const held = readLock(lock);
    if (held === undefined) continue;
    if (holderLives(held)) return undefined;
    const aside = `${lock}.${process.pid}.stale`;
    try {
      fs.renameSync(lock, aside);
    } catch {
      continue;
    }
    if (readLock(aside) !== held) {
      // Not the stale lock we read: another keeper's, taken meanwhile. Put it back.
      try {
        fs.linkSync(aside, lock);
      } catch {
        // A third keeper's lock stands there now; the one moved aside sees it is not its own.
      }
      fs.rmSync(aside, { force: true });
      return undefined;
    }
    fs.rmSync(aside, { force: true });
  }
  return undefined;
}

/** The nearest directory at or above `file` that exists. */
function nearestExisting(file: string): string {
  let current = file;
  for (;;) {
    if (fs.statSync(current, { throwIfNoEntry: false })?.isDirectory()) return current;
    const parent = path.dirname(current);
    if (parent === current) return current;
    current = parent;
  }
}

function onWatchableFileSystem(dir: string): boolean {
  try {
    return !unwatchable.has(fs.statfsSync(dir).type);
  } catch {
    return false;
  }
}

interface Watched {
  watcher: fs.FSWatcher;
  id: Identity | undefined;
}

/** Which stores changed since they were last compared, from watchers on their directories. */
class StoreWatch {
  readonly #index: SearchIndex;
  /** Per store, each watched directory's watcher and the directory it was made on (dev:ino). */
  readonly #watchers = new Map<string, Map<string, Watched>>();
  /** Stores to compare at the next query. */
  readonly dirty = new Set<string>();
  /** The index's data_version when every store was last compared (SearchIndex.dataVersion). */
  comparedAt: number | undefined;
  /** Stores compared at every query. */
  readonly #unwatched = new Set<string>();

  /** A control for tests (TXCRIPT_SEARCH_KEEPER_TEST=no-watch): events are ignored. */
  readonly #deaf: boolean;

  constructor(index: SearchIndex, harnesses: readonly string[], deaf = false) {
    this.#index = index;
    this.#deaf = deaf;
    for (const harness of harnesses) {
      this.#watchers.set(harness, new Map());
      this.reconcile(harness);
      this.dirty.add(harness);
    }
  }

  /** Stores whose comparison the watchers vouch for (watched, no event since last compared). */
  vouched(): Set<string> {
    const vouched = new Set<string>();
    for (const harness of this.#watchers.keys())
      if (!this.dirty.has(harness) && !this.#unwatched.has(harness)) vouched.add(harness);
    return vouched;
  }

  markAll(): void {
    for (const harness of this.#watchers.keys()) this.dirty.add(harness);
  }

  /**
   * Watch exactly the directories the store's saved snapshot holds; a directory watched for
   * the first time leaves the store to be compared again (a change made in it before it was
   * watched raised no event here).
   */
  reconcile(harness: string): void {
    const watchers = this.#watchers.get(harness) as Map<string, Watched>;
    const saved = this.#index.snapshotDirectories(harness);
    const wanted =
      saved === undefined ? [] : saved.missing ? [nearestExisting(saved.root)] : saved.dirs;
    const base = saved === undefined ? undefined : saved.missing ? wanted[0] : saved.root;
    const watchable =
      saved !== undefined &&
      wanted.length <= maxWatchedDirectories &&
      base !== undefined &&
      onWatchableFileSystem(saved.missing || wanted.length === 0 ? base : (wanted[0] as string));
    if (!watchable) {
      this.#closeAll(watchers);
      this.#unwatched.add(harness);
      return;
    }
    // A directory removed and made again under the same name is another directory: the watch
    // on the old one hears nothing more, so it is made again (the old one said it was removed,
    // below; its inode number may be the new one's, so that alone cannot tell).
    const keep = new Set(wanted);
    for (const [dir, watched] of watchers)
      if (!keep.has(dir) || identityOf(dir) !== watched.id) {
        watched.watcher.close();
        watchers.delete(dir);
      }
    let added = false;
    for (const dir of wanted) {
      if (watchers.has(dir)) continue;
      try {
        const id = identityOf(dir);
        const name = path.basename(dir);
        const watcher = fs.watch(dir, { persistent: false }, (event, file) => {
          if (this.#deaf) return;
          this.dirty.add(harness);
          // The directory itself removed or moved (inotify names it by its own name): this
          // watch is over; the store's next comparison watches whatever is there then. (A
          // child of the same name changed instead: the watch is only made again.)
          if (event === "rename" && file === name && watchers.get(dir)?.watcher === watcher) {
            watcher.close();
            watchers.delete(dir);
          }
        });
        watcher.on("error", () => {
          this.dirty.add(harness);
          watcher.close();
          if (watchers.get(dir)?.watcher === watcher) watchers.delete(dir);
        });
        watchers.set(dir, { watcher, id });
        added = true;
      } catch {
        // Gone already, or no watch left (ENOSPC): compared every time until watched.
        this.#closeAll(watchers);
        this.#unwatched.add(harness);
        return;
      }
    }
    this.#unwatched.delete(harness);
    if (added) this.dirty.add(harness);
  }

  #closeAll(watchers: Map<string, Watched>): void {
    for (const { watcher } of watchers.values()) watcher.close();
    watchers.clear();
  }

  close(): void {
    for (const watchers of this.#watchers.values()) this.#closeAll(watchers);
  }
}

/** A Writable that hands each chunk to `send`, reporting itself a terminal or not. */
function relay(send: (text: string) => void, isTTY: boolean): Writable & { isTTY?: boolean } {
  const stream: Writable & { isTTY?: boolean } = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      send(typeof chunk === "string" ? chunk : chunk.toString("utf8"));
      callback();
    },
  });
  stream.isTTY = isTTY;
  return stream;
}

/** Whether a keeper already answers at `socket`: it takes a request within a second. */
function listening(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const connection = net.createConnection(socket);
    const settle = (answered: boolean) => {
      clearTimeout(timer);
      connection.destroy();
      resolve(answered);
    };
    const timer = setTimeout(() => settle(false), 1_000);
    connection.on("connect", () => connection.write("{}\n"));
    connection.on("data", () => settle(true));
    connection.on("error", () => settle(false));
  });
}

/** `txcript __search-keeper`: serve until idle or superseded; the exit code. */
export async function serveKeeper(
  env: Record<string, string | undefined>,
  version: string,
): Promise<number> {
  const address = keeperAddress(env, version);
  if (address === undefined) return 2;
  // The index first: a keeper started as its home goes away makes nothing there.
  const index = SearchIndex.openExisting(address.indexFile);
  if (index === undefined) return 0;
  if (!privateDirectory(address.dir, true)) {
    index.close();
    return 2;
  }
  const indexIdentity = identityOf(address.indexFile);
  // One keeper per index: a living holder of the lock serves it (or is about to).
  const lock = takeLock(address.lock);
  if (lock === undefined) {
    index.close();
    return 0;
  }
  const lockIdentity = identityOf(address.lock);
  const release = () => {
    if (readLock(address.lock) === lock && identityOf(address.lock) === lockIdentity)
      fs.rmSync(address.lock, { force: true });
  };
  if (await listening(address.socket)) {
    // A keeper from before locks (or one whose lock was removed) answers there: leave it be.
    release();
    index.close();
    return 0;
  }
  // Bound under a name of this process's own, then renamed over whatever a keeper that is gone
  // left at the shared name (see the module comment: libuv removes the bound path on close).
  const bindPath = path.join(address.dir, `.search-${process.pid}-${Date.now()}.sock`);
  const server = net.createServer();
  const bound = await new Promise<boolean>((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(bindPath, () => resolve(true));
  });
  let socketIdentity: Identity | undefined;
  if (bound) {
    try {
      fs.renameSync(bindPath, address.socket);
      socketIdentity = identityOf(address.socket);
    } catch {
      socketIdentity = undefined;
    }
  }
  if (socketIdentity === undefined) {
    if (bound) server.close();
    fs.rmSync(bindPath, { force: true });
    release();
    index.close();
    return 0;
  }
  const watch = new StoreWatch(
    index,
    address.roots.map((store) => store.harness),
    env.TXCRIPT_SEARCH_KEEPER_TEST === "no-watch",
  );
  const idleSeconds = Number(env.TXCRIPT_SEARCH_KEEPER_IDLE ?? "600");
  const idleMs = Number.isFinite(idleSeconds) && idleSeconds > 0 ? idleSeconds * 1_000 : 600_000;
  return new Promise<number>((resolve) => {
    let stopped = false;
    let lastQuery = performance.now();
    let lastFull = performance.now();
    let queue: Promise<void> = Promise.resolve();
    const stop = () => {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      watch.close();
      // Only the socket this keeper made, while it still holds the lock (another may have
      // taken the name since); then the lock. Closing the server removes only the bind name.
      const own = readLock(address.lock) === lock && identityOf(address.lock) === lockIdentity;
      if (own && identityOf(address.socket) === socketIdentity)
        fs.rmSync(address.socket, { force: true });
      server.close();
      release();
      queue.finally(() => {
        index.close();
        resolve(0);
      });
    };
    const timer = setInterval(() => {
      if (
        performance.now() - lastQuery > idleMs ||
        identityOf(address.indexFile) !== indexIdentity ||
        identityOf(address.socket) !== socketIdentity ||
        readLock(address.lock) !== lock
      )
        stop();
    }, checkEveryMs);
    server.on("connection", (connection) => {
      connection.setEncoding("utf8");
      let buffered = "";
      connection.on("error", () => connection.destroy());
      // A client that sends no request in time is let go (a search sends it at once).
      connection.setTimeout(10_000, () => connection.destroy());
      connection.on("data", (chunk: string) => {
        buffered += chunk;
        const newline = buffered.indexOf("\n");
        if (newline < 0) {
          if (buffered.length > 1_000_000) connection.destroy();
          return;
        }
        const line = buffered.slice(0, newline);
        buffered = "";
        connection.removeAllListeners("data");
        // Answering may take long (a large refresh): no timeout from here.
        connection.setTimeout(0);
        lastQuery = performance.now();
        const send = (frame: object) => {
          if (!connection.destroyed) connection.write(`${JSON.stringify(frame)}\n`);
        };
        send({ ack: 1 });
        queue = queue.then(async () => {
          // One turn later: every watch event read with this query is handled first.
          await new Promise((done) => setImmediate(done));
          const started = performance.now();
          let frame: object = { fallback: 1 };
          try {
            if (!stopped)
              frame = await answer(line, env, index, address, watch, send, () => {
                if (performance.now() - lastFull > recheckAllMs) {
                  watch.markAll();
                  lastFull = performance.now();
                }
                if (identityOf(address.indexFile) !== indexIdentity) {
                  stop();
                  return false;
                }
                return true;
              });
          } catch {
            // The search runs in the client's own process instead; every store is compared next.
            watch.markAll();
            watch.comparedAt = undefined;
          }
          if (performance.now() - started > longWorkMs) watch.markAll();
          lastQuery = performance.now();
          if (!connection.destroyed) connection.end(`${JSON.stringify(frame)}\n`);
          // A search of another txcript version (an upgrade): this keeper steps aside, so that
          // search starts one of its own version.
          if (versionOf(line) !== undefined && versionOf(line) !== version) stop();
        });
      });
    });
  });
}

/** The txcript version a request line's configuration names (KeeperAddress.config's first item). */
function versionOf(line: string): string | undefined {
  try {
    const config = JSON.parse((JSON.parse(line) as KeeperRequest).config) as unknown;
    return Array.isArray(config) && typeof config[0] === "string" ? config[0] : undefined;
  } catch {
    return undefined;
  }
}

/** Answer one request line: the last frame to send. */
async function answer(
  line: string,
  env: Record<string, string | undefined>,
  index: SearchIndex,
  address: KeeperAddress,
  watch: StoreWatch,
  send: (frame: object) => void,
  usable: () => boolean,
): Promise<object> {
  let request: KeeperRequest;
  try {
    request = JSON.parse(line) as KeeperRequest;
  } catch {
    return { fallback: 1 };
  }
  if (
    request.v !== 1 ||
    request.config !== address.config ||
    typeof request.query !== "string" ||
    request.query === ""
  )
    return { fallback: 1 };
  if (!usable()) return { fallback: 1 };
  let out = "";
  const answerEnv: Record<string, string | undefined> = { ...env };
  delete answerEnv.FORCE_COLOR;
  delete answerEnv.NO_COLOR;
  if (request.FORCE_COLOR !== undefined) answerEnv.FORCE_COLOR = request.FORCE_COLOR;
  if (request.NO_COLOR !== undefined) answerEnv.NO_COLOR = request.NO_COLOR;
  const io: Io = {
    stdin: Readable.from([]),
    stdout: relay((text) => {
      out += text;
    }, request.stdoutTTY === true),
    stderr: relay((text) => send({ err: text }), request.stderrTTY === true),
    env: answerEnv,
    cwd: process.cwd(),
  };
  // Vouched for before the marks are cleared: an event from here on marks its store again.
  const vouched = watch.vouched();
  const dirty = [...watch.dirty];
  watch.dirty.clear();
  // Another process that wrote to the index since (a search that refreshed without asking this
  // keeper) may have saved other snapshots: they are compared again, the watched ones unstatted.
  const version = index.dataVersion();
  const trusted = vouched.size === address.roots.length && version === watch.comparedAt;
  let code: number | undefined;
  try {
    code = await answerFromIndex(
      io,
      index,
      address.roots,
      { query: request.query, json: request.json === true },
      vouched,
      trusted,
    );
  } catch {
    code = undefined;
  }
  if (code === undefined) {
    // Another process knows better (the full path refreshes, or says what is wrong).
    watch.markAll();
    watch.comparedAt = undefined;
    return { fallback: 1 };
  }
  watch.comparedAt = version;
  for (const harness of dirty) watch.reconcile(harness);
  return { exit: code, out };
}
