// OpenCode's own offline check of a saved session (`txcript continue
// --verify`, and the compatibility probe): in a temporary HOME and XDG tree
// (a fake key, proxies at 127.0.0.1:9 where nothing listens, a project whose
// only provider is at 127.0.0.1, auto-update, model fetches and sharing
// off), `opencode import <copy>` must exit 0 and `opencode export <id>` must
// give back the written messages and parts (compared through Common, the cwd
// being the directory import ran in). Every child has a hard timeout; the
// user's own OpenCode data is never touched.
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { jsonEqual, nodeChildProcess, type ProgramCheck, type SavedSession } from "@txcript/core";
import { opencodeCodec } from "./opencode-codec.js";

export interface OpencodeSandbox {
  root: string;
  env: NodeJS.ProcessEnv;
  /** A directory with the project opencode.json (provider `loop` → the stub). */
  project: string;
  database: string;
  dispose(): Promise<void>;
}

/** A temporary HOME and XDG tree for `bin`, offline, with a project whose only provider is at 127.0.0.1:`stubPort`. */
export async function opencodeSandbox(
  bin: string | undefined,
  stubPort = 9,
): Promise<OpencodeSandbox> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-opencode-"));
  const home = path.join(root, "home");
  const env: NodeJS.ProcessEnv = {
    // The program's directory first on PATH, as `opencode` (what afterSave and resumeCommand run).
    PATH: [bin === undefined ? undefined : path.dirname(bin), process.env.PATH]
      .filter(Boolean)
      .join(path.delimiter),
    HOME: home,
    XDG_DATA_HOME: path.join(home, "data"),
    XDG_CONFIG_HOME: path.join(home, "config"),
    XDG_CACHE_HOME: path.join(home, "cache"),
    XDG_STATE_HOME: path.join(home, "state"),
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_SHARE: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    HTTP_PROXY: "http://127.0.0.1:9",
    HTTPS_PROXY: "http://127.0.0.1:9",
    NO_PROXY: "127.0.0.1,localhost",
    OPENAI_API_KEY: "fake",
    ANTHROPIC_API_KEY: "fake",
  };
  const project = path.join(root, "project");
  await fs.mkdir(project, { recursive: true });
  await fs.mkdir(home, { recursive: true });
  await fs.writeFile(path.join(project, "opencode.json"), projectConfig(stubPort));
  return {
    root,
    env,
    project,
    database: path.join(home, "data", "opencode", "opencode.db"),
    dispose: () => fs.rm(root, { recursive: true, force: true }),
  };
}

export function projectConfig(port: number): string {
  return `${JSON.stringify(
    {
      $schema: "https://opencode.ai/config.json",
      provider: {
        loop: {
          npm: "@ai-sdk/openai-compatible",
          name: "loop",
          options: { baseURL: `http://127.0.0.1:${port}/v1`, apiKey: "fake" },
          models: { stub: { name: "stub" } },
        },
      },
      model: "loop/stub",
    },
    null,
    2,
  )}\n`;
}

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Run the pinned opencode with a hard timeout. Its stdout goes to a file,
 * not a pipe: OpenCode exits before a pipe drains, cutting a long
 * `export` short (measured: a 1.2 MB export ended at 589,542 bytes).
 */
export async function runOpencodeIn(
  bin: string,
  box: OpencodeSandbox,
  args: string[],
  cwd = box.project,
  timeoutMs = 90_000,
): Promise<Ran> {
  const started = Date.now();
  const output = path.join(
    box.root,
    `stdout-${process.pid}-${started}-${Math.random().toString(36).slice(2)}.txt`,
  );
  const handle = await fs.open(output, "w");
  const ran = await new Promise<Ran>((resolve) => {
    const child = nodeChildProcess().spawn(bin, args, {
      cwd,
      env: box.env,
      stdio: ["ignore", handle.fd, "pipe"],
    });
    const stdout = "";
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      stderr += String(error);
      resolve({ status: null, stdout, stderr, ms: Date.now() - started });
    });
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, ms: Date.now() - started });
    });
  });
  await handle.close();
  ran.stdout = await fs.readFile(output, "utf8");
  await fs.rm(output, { force: true });
  return ran;
}

/** Import a copy of the export file into a sandbox and export it back; the result names what differs. */
export async function importExportCheck(
  bin: string,
  box: OpencodeSandbox,
  file: string,
  timeoutMs = 90_000,
): Promise<{ ok: boolean; detail: string }> {
  const native = opencodeCodec.parse(await fs.readFile(file, "utf8"));
  const copy = path.join(box.root, "session.json");
  await fs.copyFile(file, copy);
  const imported = await runOpencodeIn(bin, box, ["import", copy], box.project, timeoutMs);
  if (imported.status !== 0)
    return {
      ok: false,
      detail: `import exited ${imported.status}: ${imported.stderr.trim().slice(-300)}`,
    };
  const id = String(native.document.info.id);
  const exported = await runOpencodeIn(bin, box, ["export", id], box.project, timeoutMs);
  if (exported.status !== 0)
    return {
      ok: false,
      detail: `export exited ${exported.status}: ${exported.stderr.trim().slice(-300)}`,
    };
  const ours = opencodeCodec.toCommon(native);
  const expected = { ...ours, meta: { ...ours.meta, cwd: box.project } };
  let back: unknown;
  try {
    back = opencodeCodec.toCommon(opencodeCodec.parse(exported.stdout));
  } catch (error) {
    return { ok: false, detail: `the export does not read: ${String(error).slice(0, 200)}` };
  }
  return jsonEqual(back, expected)
    ? { ok: true, detail: "imported the session and exported it back unchanged (through Common)" }
    : { ok: false, detail: "the export differs from what was written (through Common)" };
}

export const opencodeProgramCheck: ProgramCheck = {
  program: "opencode",
  versionArgs: ["--version"],
  description:
    "`opencode import <copy>` in a temporary home exits 0 and `opencode export <id>` gives back the written messages and parts",
  async run(saved: SavedSession, { bin, timeoutMs }) {
    const box = await opencodeSandbox(bin);
    try {
      return await importExportCheck(bin, box, saved.path, timeoutMs);
    } catch (error) {
      return { ok: false, detail: error instanceof Error ? error.message : String(error) };
    } finally {
      await box.dispose();
    }
  },
};
