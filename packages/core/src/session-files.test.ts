import { execFileSync } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TxcriptError } from "./errors.js";
import {
  deleteFilesIn,
  deleteSessionFile,
  isRegularFile,
  listDirectories,
  oneSessionFile,
  readTail,
  refuseCopyElsewhere,
  regularFiles,
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

describe("deleteFilesIn", () => {
  it("deletes the accepted regular files, then the directory once nothing is left", async () => {
    const agents = path.join(directory, "agents");
    await fs.mkdir(agents);
    for (const name of ["a.jsonl", "b.jsonl"]) await fs.writeFile(path.join(agents, name), "{}");
    expect(await deleteFilesIn(agents, (name) => name.endsWith(".jsonl"), "h")).toEqual([
      path.join(agents, "a.jsonl"),
      path.join(agents, "b.jsonl"),
    ]);
    await expect(fs.stat(agents)).rejects.toMatchObject({ code: "ENOENT" });
    // A missing directory: nothing to delete.
    expect(await deleteFilesIn(agents, () => true, "h")).toEqual([]);
  });

  it("leaves what it does not accept, a link and the link's target, and so the directory", async () => {
    const agents = path.join(directory, "agents");
    await fs.mkdir(agents);
    const outside = path.join(directory, "outside.jsonl");
    await fs.writeFile(outside, "{}");
    await fs.writeFile(path.join(agents, "a.jsonl"), "{}");
    await fs.writeFile(path.join(agents, "notes.txt"), "mine");
    await fs.symlink(outside, path.join(agents, "link.jsonl"));
    expect(await deleteFilesIn(agents, (name) => name.endsWith(".jsonl"), "h")).toEqual([
      path.join(agents, "a.jsonl"),
    ]);
    expect((await fs.readdir(agents)).sort()).toEqual(["link.jsonl", "notes.txt"]);
    expect(await fs.readFile(outside, "utf8")).toBe("{}");
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

describe("regularFiles and isRegularFile", () => {
  it("lists the regular files the filter takes, sorted across directories; never a link, FIFO or directory", async () => {
    const a = path.join(directory, "a");
    const b = path.join(directory, "b");
    await fs.mkdir(a);
    await fs.mkdir(b);
    await fs.writeFile(path.join(b, "2.jsonl"), "");
    await fs.writeFile(path.join(a, "1.jsonl"), "");
    await fs.writeFile(path.join(a, "notes.txt"), "");
    await fs.mkdir(path.join(a, "dir.jsonl"));
    const outside = path.join(directory, "outside.jsonl");
    await fs.writeFile(outside, "");
    await fs.symlink(outside, path.join(a, "link.jsonl"));
    execFileSync("mkfifo", [path.join(a, "fifo.jsonl")]);
    const jsonl = (name: string) => name.endsWith(".jsonl");
    const skipped: string[] = [];
    const found = await regularFiles([b, a, path.join(directory, "missing")], jsonl, {
      harness: "h",
      onSkip: (skip) => skipped.push(skip.path),
    });
    expect(found).toEqual([path.join(a, "1.jsonl"), path.join(b, "2.jsonl")]);
    expect(skipped).toEqual([]);
    // Control: the link's target and the FIFO are there, and a filter taking all names lists notes.txt too.
    expect(await isRegularFile(path.join(a, "link.jsonl"))).toBe(false);
    expect(await isRegularFile(path.join(a, "fifo.jsonl"))).toBe(false);
    expect(await isRegularFile(path.join(a, "dir.jsonl"))).toBe(false);
    expect(await isRegularFile(path.join(a, "gone.jsonl"))).toBe(false);
    expect(await isRegularFile(outside)).toBe(true);
    expect(await regularFiles([a], () => true, { harness: "h" })).toEqual([
      path.join(a, "1.jsonl"),
      path.join(a, "notes.txt"),
    ]);
  });
  it("reports a directory it cannot list, and goes on", async () => {
    const file = path.join(directory, "plain");
    await fs.writeFile(file, "");
    await fs.writeFile(path.join(directory, "s.jsonl"), "");
    const skipped: { path: string; reason: string }[] = [];
    const found = await regularFiles([file, directory], () => true, {
      harness: "h",
      onSkip: (skip) => skipped.push(skip),
    });
    expect(found).toEqual([file, path.join(directory, "s.jsonl")]);
    expect(skipped.map((skip) => skip.path)).toEqual([file]);
    expect(skipped[0]?.reason).toMatch(/^cannot list/);
  });
});

describe("oneSessionFile and refuseCopyElsewhere", () => {
  const options = { id: "s1", harness: "h", name: "Test", store: "/store", places: "projects" };
  it("the one file; NOT_FOUND for none; AMBIGUOUS naming every copy", () => {
    expect(oneSessionFile(["/store/a/s1"], options)).toBe("/store/a/s1");
    expect(() => oneSessionFile([], options)).toThrow(
      expect.objectContaining({ code: "NOT_FOUND", message: "no Test session s1" }),
    );
    expect(() => oneSessionFile(["/store/a/s1", "/store/b/s1"], options)).toThrow(
      expect.objectContaining({
        code: "AMBIGUOUS",
        message: "session s1 is in 2 projects",
        hint: "/store/a/s1, /store/b/s1",
      }),
    );
  });
  it("a copy elsewhere is CONFLICT; the target itself, or none, is not", () => {
    expect(() => refuseCopyElsewhere([], "/t", { id: "s1", harness: "h" })).not.toThrow();
    expect(() => refuseCopyElsewhere(["/t"], "/t", { id: "s1", harness: "h" })).not.toThrow();
    expect(() => refuseCopyElsewhere(["/t", "/u"], "/t", { id: "s1", harness: "h" })).toThrow(
      expect.objectContaining({
        code: "CONFLICT",
        message: "session s1 already exists",
        location: { file: "/u" },
      }),
    );
  });
});
