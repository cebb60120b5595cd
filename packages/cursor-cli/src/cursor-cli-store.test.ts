import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { TxcriptError } from "@txcript/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cursorCliLimits, readCursorCliDatabase } from "./cursor-cli-database.js";
import { cursorCliHarness } from "./cursor-cli-harness.js";
import { loadCursorCliFile } from "./cursor-cli-load.js";
import { CursorCliStore } from "./cursor-cli-store.js";
import { buildChat, buildStore, json, md5, node, sha256 } from "./test-support/build-store.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "txcript-cursor-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const user = { role: "user", content: "hello" };
const assistant = { role: "assistant", content: [{ type: "text", text: "hi" }] };

async function list(store: CursorCliStore) {
  const found: { id: string; cwd?: string; title?: string }[] = [];
  const skipped: { path: string; reason: string }[] = [];
  for await (const item of store.discover((skip) => skipped.push(skip))) found.push(item);
  return { found, skipped };
}

async function failure(promise: Promise<unknown>): Promise<TxcriptError> {
  try {
    await promise;
  } catch (error) {
    if (TxcriptError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a TxcriptError");
}

/** A chat directory with a hand-made store under workspace `cwd`. */
function chatDirectory(id: string, cwd = "/w") {
  return path.join(root, md5(cwd), id);
}

/** The root and meta of a chat whose tree is given as nodes: messages are JSON, nodes binary. */
function treeStore(id: string, blobs: [string, Uint8Array][], rootChildren: string[]) {
  const rootNode = node(rootChildren);
  return buildStore(chatDirectory(id), {
    blobs: [...blobs, rootNode],
    meta: { agentId: id, createdAt: 1, latestRootBlobId: sha256(rootNode) },
  });
}

describe("CursorCliStore: where it looks", () => {
  it("is <CURSOR_CONFIG_DIR>/chats when set, else ~/.cursor/chats", () => {
    expect(new CursorCliStore({ env: { CURSOR_CONFIG_DIR: "/opt/cursor" } }).root).toBe(
      "/opt/cursor/chats",
    );
    expect(new CursorCliStore({ env: { HOME: "/home/a" } }).root).toBe("/home/a/.cursor/chats");
    expect(cursorCliHarness.store?.({ HOME: "/home/a" }).root).toBe("/home/a/.cursor/chats");
  });

  it("lists each chat with the cwd its workspace directory hashes to, and none where it does not", async () => {
    buildChat(root, "chat-a", "/home/a/project", [user, assistant]);
    // Control: the same store moved under another workspace directory keeps its title, loses its cwd.
    const moved = buildChat(path.join(root, "x"), "chat-b", "/home/b", [user]);
    const elsewhere = path.join(root, "0".repeat(32), "chat-b");
    mkdirSync(elsewhere, { recursive: true });
    writeFileSync(path.join(elsewhere, "store.db"), readFileSync(moved.file));
    rmSync(path.join(root, "x"), { recursive: true });
    const { found, skipped } = await list(new CursorCliStore({ root }));
    expect(skipped).toEqual([]);
    expect(found.map(({ id, cwd, title }) => ({ id, cwd, title }))).toEqual([
      { id: "chat-b", cwd: undefined, title: "chat chat-b" },
      { id: "chat-a", cwd: "/home/a/project", title: "chat chat-a" },
    ]);
  });

  it("leaves out a chat whose latestRootBlobId is empty, as Cursor's own list does", async () => {
    buildStore(chatDirectory("empty"), {
      blobs: [],
      meta: { agentId: "empty", latestRootBlobId: "" },
    });
    buildChat(root, "full", "/w", [user]);
    const { found } = await list(new CursorCliStore({ root }));
    expect(found.map((item) => item.id)).toEqual(["full"]);
    expect((await new CursorCliStore({ root }).load("empty")).messages).toEqual([]);
  });
});

describe("CursorCliStore: read-only", () => {
  it("refuses save and delete", async () => {
    const store = new CursorCliStore({ root });
    expect((await failure(store.save())).code).toBe("REFUSED");
    expect((await failure(store.delete("x"))).code).toBe("REFUSED");
  });

  it("reads rows still only in the -wal file and changes no byte of store.db or its -wal", async () => {
    const { file, writer } = buildStore(chatDirectory("live"), {
      blobs: [],
      meta: null,
      keepOpen: true,
    });
    try {
      const message = json(user);
      const rootNode = node([sha256(message)]);
      writer?.prepare("INSERT INTO blobs (id, data) VALUES (?, ?)").run(sha256(message), message);
      writer?.prepare("INSERT INTO blobs (id, data) VALUES (?, ?)").run(sha256(rootNode), rootNode);
      writer
        ?.prepare("INSERT INTO meta (key, value) VALUES ('0', ?)")
        .run(
          Buffer.from(
            JSON.stringify({ agentId: "live", latestRootBlobId: sha256(rootNode) }),
          ).toString("hex"),
        );
      const before = [file, `${file}-wal`].map((name) => readFileSync(name));
      expect(before[1]?.length).toBeGreaterThan(0);
      const chat = await new CursorCliStore({ root }).load("live");
      expect(chat.messages.map((entry) => entry.message)).toEqual([user]);
      expect([file, `${file}-wal`].map((name) => readFileSync(name))).toEqual(before);
    } finally {
      writer?.close();
    }
  });
});

describe("CursorCliStore: ids and files", () => {
  it("refuses an id that is not a plain name, and says NOT_FOUND for an absent one", async () => {
    const store = new CursorCliStore({ root });
    expect((await failure(store.load("../../etc"))).code).toBe("UNSAFE_PATH");
    expect((await failure(store.load("nope"))).code).toBe("NOT_FOUND");
  });

  it("skips a store.db that is a link or a FIFO, without following or blocking; a linked chat directory is not entered", async () => {
    const outside = buildChat(path.join(root, "outside"), "real", "/w", [user]);
    const linked = chatDirectory("linked");
    mkdirSync(linked, { recursive: true });
    symlinkSync(outside.file, path.join(linked, "store.db"));
    symlinkSync(path.dirname(outside.file), chatDirectory("linked-dir"));
    const fifo = chatDirectory("fifo");
    mkdirSync(fifo, { recursive: true });
    execFileSync("mkfifo", [path.join(fifo, "store.db")]);
    buildChat(root, "control", "/w", [user]);
    const store = new CursorCliStore({ root });
    const { found, skipped } = await list(store);
    expect(found.map((item) => item.id)).toEqual(["control"]);
    expect(
      skipped.map((item) => [path.basename(path.dirname(item.path)), item.reason]).sort(),
    ).toEqual([
      ["fifo", "store.db is not a regular file"],
      ["linked", "store.db is a symbolic link"],
    ]);
    expect((await failure(store.load("linked"))).code).toBe("NOT_FOUND");
    expect((await failure(store.load("linked-dir"))).code).toBe("NOT_FOUND");
    expect(
      (await failure(loadCursorCliFile(path.join(fifo, "store.db"), { environment: {} }))).code,
    ).toBe("UNSAFE_PATH");
  });
});

describe("CursorCliStore: damaged and hostile stores give a TxcriptError", () => {
  const cases: [string, () => string, string, RegExp][] = [
    [
      "a file that is not SQLite",
      () => {
        mkdirSync(chatDirectory("c"), { recursive: true });
        writeFileSync(
          path.join(chatDirectory("c"), "store.db"),
          "SQLite format 3\0 then garbage".padEnd(4096, "x"),
        );
        return path.join(chatDirectory("c"), "store.db");
      },
      "IO",
      /cannot read/,
    ],
    [
      "no blobs table",
      () => buildStore(chatDirectory("c"), { without: "blobs", meta: { agentId: "c" } }).file,
      "INVALID_DOCUMENT",
      /no blobs table/,
    ],
    [
      "no meta row",
      () => buildStore(chatDirectory("c"), { meta: null }).file,
      "INVALID_DOCUMENT",
      /no meta row/,
    ],
    [
      "a meta row that is not hex",
      () => buildStore(chatDirectory("c"), { meta: '{"agentId":"c"}' }).file,
      "INVALID_DOCUMENT",
      /not hex/,
    ],
    [
      "a meta row whose hex is not JSON",
      () => buildStore(chatDirectory("c"), { meta: Buffer.from("{agentId").toString("hex") }).file,
      "INVALID_JSON",
      /./,
    ],
    [
      "a meta row that is a JSON list",
      () => buildStore(chatDirectory("c"), { meta: Buffer.from("[1]").toString("hex") }).file,
      "INVALID_DOCUMENT",
      /not a JSON object/,
    ],
    [
      "a latestRootBlobId that is not an id",
      () =>
        buildStore(chatDirectory("c"), { meta: { agentId: "c", latestRootBlobId: "../x" } }).file,
      "INVALID_DOCUMENT",
      /latestRootBlobId/,
    ],
    [
      "a root blob that is absent",
      () =>
        buildStore(chatDirectory("c"), { meta: { agentId: "c", latestRootBlobId: "a".repeat(64) } })
          .file,
      "INVALID_DOCUMENT",
      /not in its blobs table/,
    ],
    [
      "a root node cut short",
      () => {
        const cut = node(["b".repeat(64)]).subarray(0, 20);
        return buildStore(chatDirectory("c"), {
          blobs: [cut],
          meta: { agentId: "c", latestRootBlobId: sha256(cut) },
        }).file;
      },
      "INVALID_DOCUMENT",
      /runs past the end/,
    ],
    [
      "a message blob that is broken JSON",
      () => {
        const broken = Buffer.from('{"role":"user","content":');
        return treeStore("c", [[sha256(broken), broken]], [sha256(broken)]).file;
      },
      "INVALID_JSON",
      /./,
    ],
    [
      "a cyclic blob graph",
      () => {
        const [a, b] = ["a".repeat(64), "b".repeat(64)];
        return treeStore(
          "c",
          [
            [a, node([b])],
            [b, node([a])],
          ],
          [a],
        ).file;
      },
      "INVALID_DOCUMENT",
      /cyclic/,
    ],
    [
      "a root that names itself",
      () => {
        const self = "c".repeat(64);
        return buildStore(chatDirectory("c"), {
          blobs: [[self, node([self])]],
          meta: { agentId: "c", latestRootBlobId: self },
        }).file;
      },
      "INVALID_DOCUMENT",
      /cyclic/,
    ],
  ];
  for (const [name, make, code, message] of cases)
    it(`${name}: ${code}, from load and listed as skipped`, async () => {
      const file = make();
      const error = await failure(readCursorCliDatabase(file, "c"));
      expect([error.code, error.message]).toEqual([code, expect.stringMatching(message)]);
      expect(error.harness).toBe("cursor_cli");
      const { found, skipped } = await list(new CursorCliStore({ root }));
      // Discovery reads only the meta row and the root node: a damage below the root shows on load.
      if (!/cyclic|names itself|broken JSON/.test(name))
        expect(skipped.map((item) => item.path)).toEqual([file]);
      else expect(found.map((item) => item.id)).toEqual(["c"]);
    });

  it("control: the same tree without the cycle reads, through an inner node", async () => {
    const message = json(user);
    const [a, b] = ["a".repeat(64), "b".repeat(64)];
    const { file } = treeStore(
      "c",
      [
        [a, node([b])],
        [b, node([sha256(message)])],
        [sha256(message), message],
      ],
      [a],
    );
    const chat = await readCursorCliDatabase(file, "c");
    expect(chat.messages.map((entry) => entry.message)).toEqual([user]);
    expect(chat.digestMismatches.sort()).toEqual([a, b]);
  });

  it("a chain deeper than the limit is TOO_LARGE; a shallower one reads", async () => {
    const chain = (id: string, length: number) => {
      const message = json(user);
      const blobs: [string, Uint8Array][] = [[sha256(message), message]];
      let child = sha256(message);
      for (let index = 0; index < length; index += 1) {
        const next = node([child]);
        blobs.push([sha256(next), next]);
        child = sha256(next);
      }
      return treeStore(id, blobs, [child]).file;
    };
    expect(
      (await failure(readCursorCliDatabase(chain("deep", cursorCliLimits.depth + 5), "deep"))).code,
    ).toBe("TOO_LARGE");
    expect((await readCursorCliDatabase(chain("shallow", 20), "shallow")).messages).toHaveLength(1);
  });

  it("a shared subtree that doubles at each level stops at the visit limit, quickly", async () => {
    const message = json(user);
    const blobs: [string, Uint8Array][] = [[sha256(message), message]];
    let child = sha256(message);
    for (let index = 0; index < 40; index += 1) {
      const next = node([child, child]);
      blobs.push([sha256(next), next]);
      child = sha256(next);
    }
    const started = Date.now();
    const error = await failure(
      readCursorCliDatabase(treeStore("wide", blobs, [child]).file, "wide"),
    );
    expect(error.code).toBe("TOO_LARGE");
    expect(Date.now() - started).toBeLessThan(20_000);
    // Control: two levels of the same sharing read each message as often as the tree names it.
    const small = node([sha256(message), sha256(message)]);
    const chat = await readCursorCliDatabase(
      treeStore(
        "small",
        [
          [sha256(message), message],
          [sha256(small), small],
        ],
        [sha256(small), sha256(small)],
      ).file,
      "small",
    );
    expect(chat.messages).toHaveLength(4);
  });

  it("a blob past the size limit is TOO_LARGE", async () => {
    const message = json({ role: "user", content: "x".repeat(200) });
    const { file } = treeStore("big", [[sha256(message), message]], [sha256(message)]);
    const saved = cursorCliLimits.blobBytes;
    try {
      cursorCliLimits.blobBytes = 100;
      expect((await failure(readCursorCliDatabase(file, "big"))).code).toBe("TOO_LARGE");
    } finally {
      cursorCliLimits.blobBytes = saved;
    }
    expect((await readCursorCliDatabase(file, "big")).messages).toHaveLength(1);
  });

  it("a file that is neither SQLite nor the chat document is INVALID_JSON through loadFile", async () => {
    const file = path.join(root, "notes.txt");
    writeFileSync(file, "not json");
    expect((await failure(loadCursorCliFile(file, { environment: {} }))).code).toBe("INVALID_JSON");
  });
});
