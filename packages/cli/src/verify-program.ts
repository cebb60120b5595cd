// `continue --verify`: after the read-back, the target's own program checks
// the saved session offline (HarnessDefinition.programCheck: on a copy, in a
// temporary home, fake keys, every base URL at 127.0.0.1, each child under a
// timeout). The program is found before anything is written: the one named
// by TXCRIPT_VERIFY_<HARNESS>_BIN, else the first on PATH; not found, or
// not answering its version, the command fails and writes nothing. A failed
// check removes what was written, as a read-back mismatch does.
import { spawn } from "node:child_process";
import { constants, promises as fs } from "node:fs";
import os from "node:os";
import * as path from "node:path";
import { type ProgramCheck, type SavedSession, type Store, TxcriptError } from "@txcript/core";
import type { Harness } from "./harnesses.js";
import type { Io } from "./io.js";

/** How long each child of a check may run. */
export const verifyTimeoutMs = 120_000;

export function verifyVariable(harness: Harness): string {
  return `TXCRIPT_VERIFY_${harness.id.toUpperCase()}_BIN`;
}

export interface FoundProgram {
  check: ProgramCheck;
  bin: string;
  version: string;
}

/** What `--json` reports of the check. */
export interface VerifiedJson {
  program: string;
  path: string;
  version: string;
  check: string;
  detail: string;
}

async function executable(file: string): Promise<boolean> {
  try {
    await fs.access(file, constants.X_OK);
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}

async function onPath(name: string, searchPath: string | undefined): Promise<string | undefined> {
  for (const directory of (searchPath ?? "").split(path.delimiter)) {
    if (directory === "") continue;
    const file = path.join(directory, name);
    if (await executable(file)) return file;
  }
  return undefined;
}

/** The program's first line of `--version` output, run in a scratch home with a timeout. */
async function versionOf(bin: string, args: readonly string[], io: Io): Promise<string> {
  const home = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-verify-version-"));
  try {
    const outcome = await new Promise<{ status: number | null; output: string }>((resolve) => {
      const child = spawn(bin, [...args], {
        cwd: home,
        env: { PATH: io.env.PATH ?? process.env.PATH ?? "", HOME: home },
        stdio: ["ignore", "pipe", "pipe"],
      });
      // Some programs print their version on stderr (pi): stdout first, then stderr.
      let output = "";
      let errors = "";
      child.stdout.on("data", (chunk: Buffer) => {
        if (output.length < 10_000) output += chunk.toString("utf8");
      });
      child.stderr.on("data", (chunk: Buffer) => {
        if (errors.length < 10_000) errors += chunk.toString("utf8");
      });
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      child.on("error", (error) => {
        clearTimeout(timer);
        resolve({ status: null, output: String(error) });
      });
      child.on("close", (status) => {
        clearTimeout(timer);
        resolve({ status, output: output.trim() === "" ? errors : output });
      });
    });
    const line = outcome.output
      .split("\n")
      .map((entry) => entry.trim())
      .find((entry) => entry !== "");
    if (outcome.status !== 0 || line === undefined)
      throw new TxcriptError(
        "IO",
        `${bin} ${args.join(" ")} did not run (exit ${outcome.status}); nothing was written`,
        { hint: "check the program runs, or drop --verify" },
      );
    return line;
  } finally {
    await fs.rm(home, { recursive: true, force: true });
  }
}

/** The program `--verify` will run for `target`, found before anything is written. */
export async function findProgram(io: Io, target: Harness): Promise<FoundProgram> {
  const check = target.programCheck;
  if (check === undefined)
    throw new TxcriptError(
      "REFUSED",
      `--verify: txcript has no offline check with ${target.displayName}'s own program; nothing was written`,
      { hint: "drop --verify (the written session is still read back and compared)" },
    );
  const variable = verifyVariable(target);
  const override = io.env[variable];
  let bin: string | undefined;
  if (override !== undefined && override.trim() !== "") {
    bin = path.resolve(io.cwd, override);
    if (!(await executable(bin)))
      throw new TxcriptError(
        "NOT_FOUND",
        `${variable} names ${bin}, which is not an executable file; nothing was written`,
        { hint: `point ${variable} at the ${check.program} program, or unset it` },
      );
  } else bin = await onPath(check.program, io.env.PATH);
  if (bin === undefined)
    throw new TxcriptError(
      "NOT_FOUND",
      `${check.program} not found on PATH; install it or drop --verify; nothing was written`,
      { hint: `or set ${variable} to the program to check with` },
    );
  return { check, bin, version: await versionOf(bin, check.versionArgs, io) };
}

/** Run the check on what was saved; on a failure remove it and say what the program reported. */
export async function checkWithProgram(
  target: Harness,
  store: Store<unknown>,
  saved: SavedSession,
  found: FoundProgram,
  cwd: string,
): Promise<VerifiedJson> {
  const { check, bin, version } = found;
  const result = await check
    .run(saved, { bin, storeRoot: store.root, cwd, timeoutMs: verifyTimeoutMs })
    .catch((error: unknown) => ({
      ok: false,
      detail: `the check failed: ${error instanceof Error ? error.message : String(error)}`,
    }));
  if (!result.ok) {
    // A store that cannot delete (OpenCode's: the file is only staged for its import) loses the file itself.
    await store
      .delete(saved.id)
      .catch(() => fs.rm(saved.path, { force: true }).catch(() => undefined));
    throw new TxcriptError(
      "MISMATCH",
      `${check.program} ${version} (${bin}) does not take the ${target.id} session written to ${saved.path}: ${result.detail}; it was removed`,
      {
        location: { file: saved.path },
        hint: "this is a bug in txcript's writer, or a format change in that version: please report it with the input and the version",
      },
    );
  }
  return {
    program: check.program,
    path: bin,
    version,
    check: check.description,
    detail: result.detail,
  };
}
