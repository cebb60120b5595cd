import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TxcriptError } from "./errors.js";
import {
  deleteSessionFile,
  listDirectories,
  readTail,
  saveSessionFile,
  unsafeIdError,
} from "./session-files.js";

let directory: string;
beforeEach(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-session-files-"));
});
afterEach(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

async function errorOf(promise: Promise<unknown>): Promise<TxcriptError> {
  const caught = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!TxcriptError.isInstance(caught)) throw new Error(`expected a TxcriptError, got ${caught}`);
  return caught;
}

describe("readTail", () => {
  it("reads the end a head does not reach, never overlapping it", async () => {
    const file = path.join(directory, "s.jsonl");
    await fs.writeFile(file, "0123456789");
    expect(await readTail(file, 10, 4)).toBe("6789");
    expect(await readTail(file, 10, 7)).toBe("789");
    expect(await readTail(file, 10, 10)).toBe("");
    expect(await readTail(file, 10, 20)).toBe("");
  });
});

describe("saveSessionFile", () => {
  it("makes the directory, writes, and refuses to clobber unless asked", async () => {
    const target = path.join(directory, "a", "b", "s.jsonl");
    await saveSessionFile(target, "one\n", { harness: "h", root: directory });
    expect(await fs.readFile(target, "utf8")).toBe("one\n");
    const conflict = await errorOf(
      saveSessionFile(target, "two\n", { harness: "h", root: directory }),
    );
    expect(conflict.code).toBe("CONFLICT");
    expect(conflict.harness).toBe("h");
    await saveSessionFile(target, "two\n", { harness: "h", root: directory, overwrite: true });
    expect(await fs.readFile(target, "utf8")).toBe("two\n");
  });
  it("sets the mtime when given one", async () => {
    const target = path.join(directory, "s.jsonl");
    const mtime = new Date("2025-03-04T05:06:07.000Z");
    await saveSessionFile(target, "x\n", { harness: "h", root: directory, mtime });
    expect((await fs.stat(target)).mtime.toISOString()).toBe(mtime.toISOString());
  });
  it("makes only the directory it is given", async () => {
    const target = path.join(directory, "made", "not-made", "s.jsonl");
    const error = await errorOf(
      saveSessionFile(target, "x\n", {
        harness: "h",
        root: directory,
        directory: path.join(directory, "made"),
      }),
    );
    expect(error.code).toBe("NOT_FOUND");
    expect((await fs.stat(path.join(directory, "made"))).isDirectory()).toBe(true);
  });
  it("refuses a target outside the root", async () => {
    const error = await errorOf(
      saveSessionFile(path.join(directory, "..", "out.jsonl"), "x", {
        harness: "h",
        root: path.join(directory, "root"),
      }),
    );
    expect(error.code).toBe("UNSAFE_PATH");
  });
  it("names the directory it could not make", async () => {
    await fs.writeFile(path.join(directory, "file"), "");
    const error = await errorOf(
      saveSessionFile(path.join(directory, "file", "sub", "s.jsonl"), "x", {
        harness: "h",
        root: directory,
      }),
    );
    expect(error.code).toBe("IO");
    expect(error.location.file).toBe(path.join(directory, "file", "sub"));
  });
});

describe("deleteSessionFile and listDirectories", () => {
  it("deletes a file, and a missing one is NOT_FOUND", async () => {
    const file = path.join(directory, "s.jsonl");
    await fs.writeFile(file, "");
    await deleteSessionFile(file, "h");
    await expect(fs.stat(file)).rejects.toThrow();
    expect((await errorOf(deleteSessionFile(file, "h"))).code).toBe("NOT_FOUND");
  });
  it("lists directories only, sorted; none for a missing root", async () => {
    await fs.mkdir(path.join(directory, "b"));
    await fs.mkdir(path.join(directory, "a"));
    await fs.writeFile(path.join(directory, "c"), "");
    expect(await listDirectories(directory, "h")).toEqual([
      path.join(directory, "a"),
      path.join(directory, "b"),
    ]);
    expect(await listDirectories(path.join(directory, "missing"), "h")).toEqual([]);
    const error = await errorOf(listDirectories(path.join(directory, "c"), "h"));
    expect(error.code).toBe("IO");
    expect(error.message).toMatch(/^cannot list/);
  });
});

describe("unsafeIdError", () => {
  it("quotes the id, cut to 80 characters", () => {
    const error = unsafeIdError(`../${"x".repeat(100)}`, { harness: "h", hint: "a UUID" });
    expect(error.code).toBe("UNSAFE_PATH");
    expect(error.message).toBe(`not a session id: ${JSON.stringify(`../${"x".repeat(77)}`)}`);
    expect(error.hint).toBe("a UUID");
    expect(unsafeIdError("/", { harness: "h", what: "subagent id" }).message).toBe(
      'not a subagent id: "/"',
    );
  });
});
