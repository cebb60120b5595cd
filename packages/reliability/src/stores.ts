// The stores under fault, one per harness of the registry that keeps
// sessions on disk (`store` in its HarnessDefinition): how to build each
// over a root, a sample session of each written by the harness's own writer
// from a small Common transcript (with a payload that tells two writers
// apart), and how to run store operations in a separate Node process,
// optionally as another user (tests run as root here, and root ignores file
// modes). The child loads one bundled file of the registry from a directory
// every user can read, so it works wherever the repository lives.
import { execFile, execFileSync } from "node:child_process";
import { constants, existsSync, promises as fs, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type { AnyHarness, Environment, Store, Transcript } from "@txcript/core";
import { TxcriptError } from "@txcript/core";
import { harnessDefinitions } from "@txcript/harnesses";
import { build, type Plugin } from "esbuild";
import { repoRoot } from "./paths.js";

export interface StoreUnderFault {
  harness: string;
  definition: AnyHarness;
  // biome-ignore lint/suspicious/noExplicitAny: stores of any native body
  make(root: string): Store<any>;
  /** A session's native text whose prompt carries `payload`; the same id every time for one `id`. */
  sampleText(payload: string, id?: string): string;
  parse(text: string): unknown;
  /** The text a store writes for a session read from `text`. */
  written(text: string): string;
}

/** The environment a store under fault sees: a home beside its root, never the real one. */
export function environmentFor(root: string): Environment {
  const home = `${root}-home`;
  return {
    HOME: home,
    XDG_DATA_HOME: path.join(home, ".local/share"),
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_STATE_HOME: path.join(home, ".local/state"),
    XDG_CACHE_HOME: path.join(home, ".cache"),
  };
}

const defaultSessionId = "5e551011-0000-4000-8000-00000000fa17";

/** A two-message Common transcript whose prompt is `payload`. */
export function sampleTranscript(payload: string, id = defaultSessionId): Transcript {
  return {
    meta: { id, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/tmp/txcript-store-faults" },
    messages: [
      {
        role: "user",
        timestamp: "2026-01-01T00:00:00.000Z",
        content: [{ type: "text", text: payload }],
      },
      {
        role: "assistant",
        timestamp: "2026-01-01T00:00:01.000Z",
        content: [{ type: "text", text: "done" }],
      },
    ],
  };
}

/** The stores under fault of a list of harnesses (those with a store), in its order. */
export function storesUnderFaultOf(harnesses: readonly AnyHarness[]): StoreUnderFault[] {
  return harnesses.flatMap((definition) => {
    const factory = definition.store;
    if (factory === undefined) return [];
    const { codec } = definition;
    const writeOptions = definition.writeOptions?.({ from: "common" }) ?? {};
    return [
      {
        harness: definition.id,
        definition,
        make: (root: string) => factory(environmentFor(root), root),
        sampleText: (payload: string, id?: string) =>
          codec.serialize(codec.fromCommon(sampleTranscript(payload, id), writeOptions)),
        parse: (text: string) => codec.parse(text),
        written: (text: string) => codec.serialize(codec.parse(text)),
      },
    ];
  });
}

/** Every store of the registry. */
export const storesUnderFault: StoreUnderFault[] = storesUnderFaultOf(harnessDefinitions);

/**
 * Whether a store keeps one plain file per session under its root, so the
 * file-level faults (vanish, FIFO, modes, symlinks) apply: two sessions saved
 * into a fresh root must land in two regular files inside it. A store that
 * cannot save into a fresh directory (it needs a special root) says why.
 */
export async function fileLayout(
  subject: StoreUnderFault,
): Promise<{ perFile: true } | { perFile: false; reason: string }> {
  const root = await fs.mkdtemp(path.join(tmpdir(), "txcript-store-layout-"));
  const saved: { id: string; path: string }[] = [];
  try {
    const store = subject.make(root);
    for (const id of [defaultSessionId, "6f662122-1111-4111-9111-00000000fa18"])
      saved.push(await store.save(subject.parse(subject.sampleText(`layout ${id}`, id)) as never));
    for (const { path: file } of saved) {
      const stat = await fs.lstat(file).catch(() => undefined);
      if (!stat?.isFile() || path.relative(root, file).startsWith(".."))
        return { perFile: false, reason: `a save reports ${file}, not a file inside the root` };
    }
    if (saved[0]?.path === saved[1]?.path)
      return { perFile: false, reason: `two sessions share one file (${saved[0]?.path})` };
    const found = new Set<string>();
    for await (const entry of store.discover()) found.add(entry.id);
    if (!saved.every(({ id }) => found.has(id)))
      return { perFile: false, reason: "discover does not list the sessions save wrote" };
    return { perFile: true };
  } catch (error) {
    return {
      perFile: false,
      reason: `it cannot save into a fresh directory: ${TxcriptError.isInstance(error) ? error.format() : String(error)}`,
    };
  } finally {
    // A store that saved outside its root (a staging directory) leaves nothing behind either.
    for (const { path: file } of saved)
      if (path.relative(root, file).startsWith("..")) await fs.rm(file, { force: true });
    await fs.rm(root, { recursive: true, force: true });
    await fs.rm(`${root}-home`, { recursive: true, force: true });
  }
}

// Packages with a native addon stay outside the bundle (loaded from the repo).
const nativeAddonsExternal: Plugin = {
  name: "native-addons-external",
  setup(context) {
    context.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith("node:") || args.pluginData === "inner") return undefined;
      const resolved = await context.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: "inner",
      });
      if (resolved.errors.length > 0 || resolved.external) return undefined;
      for (let directory = path.dirname(resolved.path); ; directory = path.dirname(directory)) {
        const manifest = path.join(directory, "package.json");
        if (existsSync(manifest)) {
          const addon =
            existsSync(path.join(directory, "binding.gyp")) ||
            (JSON.parse(readFileSync(manifest, "utf8")) as { gypfile?: boolean }).gypfile === true;
          return addon ? { path: pathToFileURL(resolved.path).href, external: true } : resolved;
        }
        if (path.dirname(directory) === directory) return resolved;
      }
    });
  },
};

let bundle: Promise<string> | undefined;

/** The registry as one ES module in a directory every user can read (built once per process). */
export function childBundle(): Promise<string> {
  bundle ??= (async () => {
    const directory = await fs.mkdtemp(path.join(tmpdir(), "txcript-child-"));
    await fs.chmod(directory, 0o755);
    const outfile = path.join(directory, "registry.mjs");
    await build({
      entryPoints: [path.join(repoRoot, "packages/harnesses/src/index.ts")],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      conditions: ["@txcript/source"],
      outfile,
      logLevel: "silent",
      plugins: [nativeAddonsExternal],
      // CommonJS dependencies inside an ES module bundle.
      banner: {
        js: 'import { createRequire as __txcriptRequire } from "node:module"; const require = __txcriptRequire(import.meta.url);',
      },
    });
    await fs.chmod(outfile, 0o644);
    return outfile;
  })();
  return bundle;
}

/** Remove the bundle (afterAll of a file that ran children). */
export async function removeChildBundle(): Promise<void> {
  if (bundle === undefined) return;
  const file = await bundle.catch(() => undefined);
  bundle = undefined;
  if (file !== undefined) await fs.rm(path.dirname(file), { recursive: true, force: true });
}

export interface ChildResult {
  /** The child's last stdout line: "ok" or a TxcriptError code, or "escaped: <name>: <message>". */
  outcome: string;
  stdout: string;
  stderr: string;
}

/**
 * Run `body` (an async function body with `store`, `codec`, `root`, `arg`,
 * `fs` in scope) in a fresh Node process over the bundled registry.
 * `asUser` runs it as uid/gid 65534 (nobody) so file modes apply.
 */
export async function inChild(
  subject: StoreUnderFault,
  root: string,
  body: string,
  options: { arg?: string; asUser?: boolean } = {},
): Promise<ChildResult> {
  const registry = await childBundle();
  const script = `
    const { defaultRegistry } = await import(${JSON.stringify(pathToFileURL(registry).href)});
    const fs = await import("node:fs");
    const root = ${JSON.stringify(root)};
    const arg = process.argv[1];
    const harness = defaultRegistry.find(${JSON.stringify(subject.harness)});
    const codec = harness.codec;
    const store = harness.store(${JSON.stringify(environmentFor(root))}, root);
    try {
      await (async () => { ${body} })();
      console.log("ok");
    } catch (error) {
      const marked = typeof error === "object" && error !== null && error[Symbol.for("txcript.error")] === true;
      console.log(marked ? error.code + " " + JSON.stringify(error.message) : "escaped: " + (error && error.name) + ": " + (error && error.message));
    }`;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--input-type=module", "-e", script, options.arg ?? ""],
      {
        cwd: path.dirname(registry),
        timeout: 60_000,
        maxBuffer: 16 * 1024 * 1024,
        ...(options.asUser ? { uid: 65534, gid: 65534 } : {}),
      },
      (error, stdout, stderr) => {
        const lines = stdout.trim().split("\n");
        resolve({
          outcome:
            error && !stdout ? `spawn failed: ${error.message}` : (lines[lines.length - 1] ?? ""),
          stdout,
          stderr,
        });
      },
    );
  });
}

/**
 * Replace a saved session's file by a FIFO, then discover and load with a
 * 3-second limit each. A reader blocked in open(2) is released afterwards
 * (a writer opens and closes the FIFO) so a hang cannot outlive the test.
 */
export async function fifoProbe(
  // biome-ignore lint/suspicious/noExplicitAny: stores of any native body
  store: Store<any>,
  id: string,
  file: string,
): Promise<{ discovered: string; loaded: string }> {
  await fs.unlink(file);
  execFileSync("mkfifo", [file]);
  const timeout = (label: string) =>
    new Promise<string>((resolve) => setTimeout(() => resolve(`${label} hung`), 3000));
  const discovered = await Promise.race([
    (async () => {
      let count = 0;
      for await (const _ of store.discover()) count += 1;
      return `discovered ${count}`;
    })(),
    timeout("discover"),
  ]);
  const loaded = await Promise.race([
    store.load(id).then(
      () => "loaded",
      (error: unknown) =>
        TxcriptError.isInstance(error) ? `refused ${error.code}` : `escaped ${String(error)}`,
    ),
    timeout("load"),
  ]);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const writer = await fs
      .open(file, constants.O_WRONLY | constants.O_NONBLOCK)
      .catch(() => undefined);
    await writer?.close();
  }
  return { discovered, loaded };
}

/**
 * Why the permission tests cannot run here, or undefined when they can:
 * they need root (to switch to uid 65534, and because root ignores file
 * modes), and uid 65534 must be able to run this Node binary on the bundle
 * (a Node installed under /root, say, is out of its reach).
 */
export async function asUserSkipReason(): Promise<string | undefined> {
  if (process.getuid?.() !== 0)
    return "needs root: only root can run the child as uid 65534, and root ignores file modes otherwise";
  const registry = await childBundle();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `await import(${JSON.stringify(pathToFileURL(registry).href)}); console.log("ok");`,
      ],
      { cwd: path.dirname(registry), timeout: 60_000, uid: 65534, gid: 65534 },
      (error, stdout, stderr) => {
        if (stdout.trim() === "ok") resolve(undefined);
        else {
          const why = (stderr
            .trim()
            .split("\n")
            .find((line) => /Error|denied/.test(line)) ??
            error?.message ??
            "no output") as string;
          resolve(`uid 65534 cannot run ${process.execPath} on ${registry}: ${why.slice(0, 200)}`);
        }
      },
    );
  });
}
