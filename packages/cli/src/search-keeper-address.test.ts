// The search keeper's address (search-keeper-address.ts): one socket per
// index, in a private directory, and the hash that names it.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import {
  directoryProblem,
  fnv1a64,
  keeperAddress,
  keeperMode,
  lockHeld,
  privateDirectory,
  startTimeOf,
} from "./search-keeper-address.js";

const env = { HOME: "/home/ada", XDG_RUNTIME_DIR: "/run/user/1000", TXCRIPT_SEARCH_KEEPER: "1" };

describe("the search keeper's address", () => {
  it("hashes with FNV-1a 64 (the reference vectors)", () => {
    expect(fnv1a64("")).toBe("cbf29ce484222325");
    expect(fnv1a64("a")).toBe("af63dc4c8601ec8c");
    expect(fnv1a64("foobar")).toBe("85944171f73967e8");
  });

  it.runIf(process.platform === "linux")(
    "names one socket per index (whatever the version, stores or settings), in $XDG_RUNTIME_DIR/txcript",
    () => {
      const base = keeperAddress(env, "1.0.0");
      expect(base?.dir).toBe("/run/user/1000/txcript");
      expect(base?.socket).toMatch(/^\/run\/user\/1000\/txcript\/search-[0-9a-f]{16}\.sock$/);
      expect(base?.lock).toBe(base?.socket.replace(/\.sock$/, ".lock"));
      // Another index: another keeper.
      const otherIndex = keeperAddress(
        { ...env, TXCRIPT_SEARCH_INDEX: "/tmp/other.sqlite" },
        "1.0.0",
      );
      expect(otherIndex?.socket).not.toBe(base?.socket);
      // What the answer depends on is in the configuration the request carries, not the name.
      for (const other of [
        keeperAddress(env, "1.0.1"),
        keeperAddress({ ...env, CODEX_HOME: "/elsewhere" }, "1.0.0"),
        keeperAddress({ ...env, TXCRIPT_MAX_INPUT_BYTES: "1000" }, "1.0.0"),
      ]) {
        expect(other?.socket).toBe(base?.socket);
        expect(other?.config).not.toBe(base?.config);
      }
      // Settings that change nothing a search reads (even unknown ones) change neither.
      for (const same of [
        keeperAddress({ ...env, TXCRIPT_SEARCH_KEEPER: "only" }, "1.0.0"),
        keeperAddress({ ...env, TXCRIPT_SEARCH_KEEPER_IDLE: "5" }, "1.0.0"),
        keeperAddress({ ...env, TXCRIPT_SEARCH_FAST: "0" }, "1.0.0"),
        keeperAddress({ ...env, TXCRIPT_FOO: "1" }, "1.0.0"),
      ]) {
        expect(same?.socket).toBe(base?.socket);
        expect(same?.config).toBe(base?.config);
      }
      // Off, or a relative runtime directory (not used: <tmpdir>/txcript-<uid> instead).
      expect(keeperAddress({ ...env, TXCRIPT_SEARCH_KEEPER: "0" }, "1.0.0")).toBeUndefined();
      expect(keeperAddress({ ...env, TXCRIPT_SEARCH_KEEPER: undefined }, "1.0.0")).toBeUndefined();
      expect(keeperAddress({ ...env, XDG_RUNTIME_DIR: "run" }, "1.0.0")?.dir).toBe(
        path.join(tmpdir(), `txcript-${process.getuid?.()}`),
      );
      // A socket path too long for a Unix socket: no keeper.
      expect(keeperAddress({ ...env, XDG_RUNTIME_DIR: `/${"x".repeat(90)}` }, "1.0.0")).toBe(
        undefined,
      );
    },
  );

  it("reads TXCRIPT_SEARCH_KEEPER", () => {
    // Opt-in: off unless asked.
    expect(keeperMode({})).toBe("off");
    expect(keeperMode({ TXCRIPT_SEARCH_KEEPER: "yes please" })).toBe("off");
    expect(keeperMode({ TXCRIPT_SEARCH_KEEPER: "true" })).toBe("on");
    expect(keeperMode({ TXCRIPT_SEARCH_KEEPER: "0" })).toBe("off");
    expect(keeperMode({ TXCRIPT_SEARCH_KEEPER: "only" })).toBe("only");
    expect(keeperMode({ TXCRIPT_SEARCH_KEEPER: "1" })).toBe("on");
  });

  it.runIf(process.platform === "linux")(
    "makes its directory private, and takes none others can enter",
    () => {
      const root = mkdtempSync(path.join(tmpdir(), "txcript-keeper-"));
      try {
        const dir = path.join(root, "run", "txcript");
        expect(privateDirectory(dir, false)).toBe(false);
        expect(privateDirectory(dir, true)).toBe(true);
        chmodSync(dir, 0o750);
        expect(directoryProblem(dir, false)).toBe(`${dir} lets other users in (mode 750, not 700)`);
        expect(directoryProblem(path.join(root, "none"), false)).toBe("missing");
        expect(privateDirectory(dir, false)).toBe(false);
        expect(privateDirectory(dir, true)).toBe(false);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  );

  it.runIf(process.platform === "linux")(
    "takes a lock as held only while the process it names (pid and start time) runs",
    () => {
      const root = mkdtempSync(path.join(tmpdir(), "txcript-keeper-"));
      try {
        const lock = path.join(root, "search.lock");
        expect(lockHeld(lock)).toBe(false);
        const started = startTimeOf(process.pid);
        expect(started).toMatch(/^\d+$/);
        writeFileSync(lock, `${process.pid} ${started}\n`);
        expect(lockHeld(lock)).toBe(true);
        // The same pid with another start time: a process that reused a dead keeper's pid.
        writeFileSync(lock, `${process.pid} ${Number(started) + 1}\n`);
        expect(lockHeld(lock)).toBe(false);
        writeFileSync(lock, "not a lock");
        expect(lockHeld(lock)).toBe(false);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  );
});
