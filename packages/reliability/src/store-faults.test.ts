// Store faults, for every store of the registry: a file that vanishes or
// turns unreadable between discover and load, permission denied (run as
// uid 65534 in a child process, since these tests run as root and root
// ignores file modes), a symlinked store and symlinks pointing outside it,
// path-traversal ids, two real processes saving one id at once, and a
// write that fails midway with ENOSPC. A store that does not keep one plain
// file per session under its root skips the file-level faults, saying why.
import { existsSync, promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { TxcriptError } from "@txcript/core";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { listFiles } from "./cli.js";
import { knownStoreBug } from "./known-bugs.js";
import {
  asUserSkipReason,
  fifoProbe,
  fileLayout,
  inChild,
  removeChildBundle,
  type StoreUnderFault,
  storesUnderFault,
} from "./stores.js";

const layouts = await Promise.all(storesUnderFault.map((subject) => fileLayout(subject)));
const asUserReason = await asUserSkipReason();
if (asUserReason !== undefined)
  console.warn(`store faults: permission tests skipped: ${asUserReason}`);
afterAll(removeChildBundle);

let scratch: string;
beforeEach(async () => {
  scratch = await fs.mkdtemp(path.join(tmpdir(), "txcript-store-faults-"));
  // Readable by uid 65534 for the permission tests.
  await fs.chmod(scratch, 0o755);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await fs.rm(scratch, { recursive: true, force: true });
});

async function rejection(promise: Promise<unknown>): Promise<TxcriptError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!TxcriptError.isInstance(error))
    throw new Error(
      `expected a TxcriptError, got ${error === undefined ? "success" : String(error)}`,
      {
        cause: error,
      },
    );
  return error;
}

/** A temporary file of core's writeFileAtomic (`.<name>.<pid>.<hex>.tmp`) or any `.tmp`. */
function isTemporary(file: string): boolean {
  return file.endsWith(".tmp");
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const found: T[] = [];
  for await (const item of iterable) found.push(item);
  return found;
}

/** A store over `<scratch>/<name>` holding one saved session; returns its id and file. */
async function seeded(subject: StoreUnderFault, name = "store", payload = "first") {
  const root = path.join(scratch, name);
  await fs.mkdir(root, { recursive: true });
  await fs.chmod(root, 0o755);
  const store = subject.make(root);
  const saved = await store.save(subject.parse(subject.sampleText(payload)));
  return { root, store, ...saved };
}

/** Ids that try to leave a store, or are no id at all. */
function traversalIds(): string[] {
  return [
    "../victim",
    "../../victim",
    `..${path.sep}victim`,
    "..\\victim",
    "/etc/passwd",
    path.join(scratch, "victim"),
    "T-../../victim",
    "a/b",
    "",
    ".",
    "..",
    "x\u0000y",
    "%2e%2e%2fvictim",
    `${"a".repeat(5000)}`,
  ];
}

describe("the stores under fault", () => {
  it("are every store of the registry", async () => {
    const { harnessDefinitions } = await import("@txcript/harnesses");
    expect(storesUnderFault.map((subject) => subject.harness)).toEqual(
      harnessDefinitions.filter((harness) => harness.store).map((harness) => harness.id),
    );
    expect(storesUnderFault.length).toBeGreaterThanOrEqual(2);
  });

  // Whatever its layout (a database file as root, say): load and delete of these ids
  // are refused and touch nothing.
  for (const subject of storesUnderFault)
    it(`${subject.harness}: path-traversal ids are refused by load and delete, whatever the layout`, async () => {
      // A root that does not exist yet suits every layout (a directory, or a database file).
      const root = path.join(scratch, "absent-store");
      const store = subject.make(root);
      const victim = path.join(scratch, "victim.json");
      await fs.writeFile(victim, subject.sampleText("victim"));
      const before = await fs.readFile(victim);
      for (const id of traversalIds()) {
        const load = await rejection(store.load(id));
        expect(
          ["UNSAFE_PATH", "NOT_FOUND", "USAGE"],
          `load(${JSON.stringify(id.slice(0, 40))})`,
        ).toContain(load.code);
        const remove = await rejection(store.delete(id));
        expect(
          ["UNSAFE_PATH", "NOT_FOUND", "USAGE", "REFUSED", "UNSUPPORTED"],
          `delete(${JSON.stringify(id.slice(0, 40))})`,
        ).toContain(remove.code);
      }
      expect(await fs.readFile(victim)).toEqual(before);
      expect(existsSync(root), "the store created its root").toBe(false);
    });
});

for (const [index, subject] of storesUnderFault.entries()) {
  const layout = layouts[index] as Awaited<ReturnType<typeof fileLayout>>;
  const skipped = layout.perFile ? undefined : layout.reason;
  if (skipped !== undefined)
    console.warn(`store faults: ${subject.harness}: file faults skipped: ${skipped}`);
  describe.skipIf(skipped !== undefined)(
    `${subject.harness} store faults${skipped === undefined ? "" : ` (skipped: ${skipped})`}`,
    () => {
      it("load of a file that vanished after discover is NOT_FOUND with the file", async () => {
        const { store, id, path: file } = await seeded(subject);
        const found = await collect(store.discover());
        expect(found.map((entry) => entry.id)).toEqual([id]);
        await fs.unlink(file);
        const error = await rejection(store.load(id));
        expect(error.code).toBe("NOT_FOUND");
        expect(error.location.file).toBeDefined();
      });

      it("load of a file replaced by a directory after discover is a TxcriptError", async () => {
        const { store, id, path: file } = await seeded(subject);
        await collect(store.discover());
        await fs.unlink(file);
        await fs.mkdir(file);
        const error = await rejection(store.load(id));
        expect(["NOT_FOUND", "IO"]).toContain(error.code);
      });

      it("a FIFO in place of a session neither hangs discover nor load", async () => {
        const { store, id, path: file } = await seeded(subject);
        const { discovered, loaded } = await fifoProbe(store, id, file);
        expect(discovered).toBe("discovered 0");
        expect(loaded).toMatch(/^refused /);
      });

      const permissionBug = knownStoreBug(subject.harness, "permission");
      // A store with a known bug here fails this test until the fix lands (then it flips).
      const permissionTest = permissionBug
        ? it.skipIf(asUserReason !== undefined).fails
        : it.skipIf(asUserReason !== undefined);
      permissionTest(
        `permission denied (as uid 65534): load, discover and save are IO errors${asUserReason === undefined ? "" : ` (skipped: ${asUserReason})`}${permissionBug ? ` (known bug, expected to fail: ${permissionBug.id})` : ""}`,
        async () => {
          const { root, id, path: file } = await seeded(subject);
          await fs.chmod(file, 0o000);
          const load = await inChild(subject, root, "await store.load(arg);", {
            arg: id,
            asUser: true,
          });
          expect(load.outcome, load.stderr).toMatch(/^IO "cannot read: permission denied"/);
          await fs.chmod(file, 0o644);
          // A store whose directories cannot be listed.
          await fs.chmod(path.dirname(file), 0o000);
          const discover = await inChild(
            subject,
            root,
            "for await (const x of store.discover()) {}",
            { asUser: true },
          );
          expect(discover.outcome, discover.stderr).toMatch(/^(ok|IO )/);
          await fs.chmod(path.dirname(file), 0o755);
          // A store that cannot be written: nothing appears, no temporary file is left.
          await fs.chmod(path.dirname(file), 0o555);
          const before = await listFiles(root);
          const save = await inChild(
            subject,
            root,
            `const text = fs.readFileSync(arg, "utf8"); await store.save(codec.parse(text), { overwrite: true });`,
            { arg: file, asUser: true },
          );
          expect(save.outcome, save.stderr).toMatch(/^IO .*permission denied/);
          expect(await listFiles(root)).toEqual(before);
        },
      );

      it("a store directory that is a symlink is followed (users link their dotfiles)", async () => {
        const { root, id } = await seeded(subject);
        const link = path.join(scratch, "linked-store");
        await fs.symlink(root, link);
        const store = subject.make(link);
        expect((await collect(store.discover())).map((entry) => entry.id)).toEqual([id]);
        await expect(store.load(id)).resolves.toBeDefined();
      });

      it("symlinks pointing outside the store are neither listed, read, written through nor deleted through", async () => {
        const { root, store, id, path: file } = await seeded(subject);
        const outside = path.join(scratch, "outside");
        await fs.mkdir(outside);
        const victim = path.join(outside, path.basename(file));
        await fs.rename(file, victim);
        const victimBytes = await fs.readFile(victim);
        await fs.symlink(victim, file);
        // A whole directory link too (Claude Code keeps sessions one level down).
        await fs.symlink(outside, path.join(root, "-linked-outside"));
        expect(await collect(store.discover())).toEqual([]);
        const load = await rejection(store.load(id));
        expect(["UNSAFE_PATH", "NOT_FOUND"]).toContain(load.code);
        const save = await rejection(
          store.save(subject.parse(subject.sampleText("second")), { overwrite: true }),
        );
        expect(["UNSAFE_PATH", "CONFLICT"]).toContain(save.code);
        await store.delete(id).catch(() => undefined);
        expect(await fs.readFile(victim)).toEqual(victimBytes);
      });

      it("path-traversal ids are refused and never reach a file outside the store", async () => {
        const { root, store } = await seeded(subject);
        const filesBefore = await listFiles(root);
        const victim = path.join(scratch, "victim.json");
        await fs.writeFile(victim, subject.sampleText("victim"));
        const ids = traversalIds();
        for (const id of ids) {
          const load = await rejection(store.load(id));
          expect(
            ["UNSAFE_PATH", "NOT_FOUND", "USAGE"],
            `load(${JSON.stringify(id.slice(0, 40))})`,
          ).toContain(load.code);
          const remove = await rejection(store.delete(id));
          expect(["UNSAFE_PATH", "NOT_FOUND", "USAGE"]).toContain(remove.code);
        }
        expect(existsSync(victim)).toBe(true);
        expect(await listFiles(root)).toEqual(filesBefore);
      });

      it("two processes saving the same id at once: one wins, the other gets CONFLICT, no torn file", async () => {
        const root = path.join(scratch, "race");
        await fs.mkdir(root);
        // Large payloads widen the window in which a torn or mixed write would show.
        const texts = ["A", "B"].map((tag) =>
          subject.sampleText(`writer ${tag} ${tag.repeat(2_000_000)}`),
        );
        const inputs = await Promise.all(
          texts.map(async (text, index) => {
            const file = path.join(scratch, `input-${index}`);
            await fs.writeFile(file, text);
            return file;
          }),
        );
        const body = `const text = fs.readFileSync(arg, "utf8"); await store.save(codec.parse(text));`;
        const results = await Promise.all(
          inputs.map((input) => inChild(subject, root, body, { arg: input })),
        );
        const outcomes = results.map((result) => result.outcome.split(" ")[0]).sort();
        expect(
          outcomes,
          results.map((result) => result.outcome + result.stderr).join("; "),
        ).toEqual(["CONFLICT", "ok"]);
        expect((await listFiles(root)).filter(isTemporary)).toEqual([]);
        // One session, in one file (a store may keep index or marker files beside it).
        const sessions = await collect(subject.make(root).discover());
        expect(sessions).toHaveLength(1);
        const written = await fs.readFile((sessions[0] as { path: string }).path, "utf8");
        // Exactly one writer's whole serialization, not a mix of both.
        const expected = texts.map((text) => subject.written(text));
        expect(
          written === expected[0] || written === expected[1],
          `${written.length} characters`,
        ).toBe(true);
      });

      it("a write failing midway with ENOSPC leaves no temporary file, no partial target, and the old file intact", async () => {
        const { root, store, path: file } = await seeded(subject);
        const before = await fs.readFile(file);
        const original = fs.open;
        vi.spyOn(fs, "open").mockImplementation(async (...args: Parameters<typeof fs.open>) => {
          const handle = await original(...args);
          const write = handle.writeFile.bind(handle);
          handle.writeFile = async (data: Parameters<typeof handle.writeFile>[0]) => {
            const text =
              typeof data === "string" ? data : Buffer.from(data as Uint8Array).toString("utf8");
            await write(text.slice(0, Math.floor(text.length / 2)));
            throw Object.assign(new Error("ENOSPC: no space left on device, write"), {
              code: "ENOSPC",
            });
          };
          return handle;
        });
        const overwrite = await rejection(
          store.save(subject.parse(subject.sampleText("second")), { overwrite: true }),
        );
        expect(overwrite.code).toBe("IO");
        expect(overwrite.message).toMatch(/no space left/);
        expect(await fs.readFile(file)).toEqual(before);
        await fs.unlink(file);
        const filesBefore = await listFiles(root);
        const fresh = await rejection(store.save(subject.parse(subject.sampleText("third"))));
        expect(fresh.message).toMatch(/no space left/);
        vi.restoreAllMocks();
        expect(await listFiles(root)).toEqual(filesBefore);
        expect(await collect(store.discover())).toEqual([]);
      });
    },
  );
}
