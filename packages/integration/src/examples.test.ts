// Every code example in the READMEs and docs is executed, so the docs
// cannot rot: TypeScript blocks are type-checked together and each is run
// with tsx; shell blocks run in bash from the repository root, with the
// built `txcript` on PATH, a throwaway HOME and stores, in a scratch
// directory where `fixtures/` is the repository's fixtures.
import { existsSync, promises as fs } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findExamples } from "./examples.js";
import { localBin, repoRoot, run } from "./workspace.js";

const examples = findExamples();
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const scratch = fileURLToPath(new URL("../.examples/", import.meta.url));
const cliBin = path.join(repoRoot, "packages/cli/dist/txcript.js");
let home: string;
let binDirectory: string;
/** Where shell examples run: a scratch directory with the repository's fixtures linked in. */
let workspace: string;

function slug(file: string, line: number): string {
  return `${file.replace(/[^A-Za-z0-9]+/g, "-")}-L${line}`;
}

beforeAll(async () => {
  await fs.rm(scratch, { recursive: true, force: true });
  await fs.mkdir(scratch, { recursive: true });
  home = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-examples-"));
  binDirectory = path.join(home, "bin");
  await fs.mkdir(binDirectory);
  workspace = path.join(home, "work");
  await fs.mkdir(workspace);
  await fs.symlink(path.join(repoRoot, "fixtures"), path.join(workspace, "fixtures"));
  await fs.writeFile(
    path.join(binDirectory, "txcript"),
    `#!/bin/sh\nexec "${process.execPath}" "${cliBin}" "$@"\n`,
    { mode: 0o755 },
  );
  for (const example of examples.filter((found) => found.language === "ts")) {
    await fs.writeFile(
      path.join(scratch, `${slug(example.file, example.line)}.ts`),
      `${example.code}\nexport {};\n`,
    );
  }
  await fs.writeFile(
    path.join(scratch, "tsconfig.json"),
    JSON.stringify({
      extends: "../../../tsconfig.base.json",
      compilerOptions: { noEmit: true, noUnusedLocals: false },
      include: ["*.ts"],
    }),
  );
});

afterAll(async () => {
  if (home) await fs.rm(home, { recursive: true, force: true });
});

describe("documentation examples", () => {
  it("exist: a runnable example in every package README", () => {
    const expected = {
      core: "ts",
      amp: "ts",
      "stream-json": "ts",
      "claude-code": "ts",
      cli: "sh",
    } as const;
    for (const [name, language] of Object.entries(expected)) {
      const file = `packages/${name}/README.md`;
      expect(
        examples.some(
          (example) =>
            example.file === file && example.language === language && example.skip === undefined,
        ),
        file,
      ).toBe(true);
    }
  });

  it("type-check together", async () => {
    if (!examples.some((example) => example.language === "ts")) return;
    await run(localBin("tsc"), ["-p", scratch], { cwd: scratch, timeout: 180_000 }).catch(
      (error: { stdout?: string; message: string }) => {
        throw new Error(
          `the documentation's TypeScript examples do not type-check:\n${error.stdout ?? error.message}`,
        );
      },
    );
  });

  for (const example of examples) {
    const title = `${example.file}:${example.line} (${example.language})`;
    const test = example.skip === undefined ? it : it.skip;
    test(title, async () => {
      const environment = {
        ...process.env,
        HOME: home,
        XDG_DATA_HOME: path.join(home, "data"),
        AMP_THREADS_DIR: path.join(home, "amp-threads"),
        CLAUDE_CONFIG_DIR: path.join(home, "claude"),
        NO_COLOR: "1",
        PATH: `${binDirectory}${path.delimiter}${process.env.PATH ?? ""}`,
      };
      const result =
        example.language === "ts"
          ? await run(
              process.execPath,
              [
                "--conditions=@txcript/source",
                "--import",
                tsxLoader,
                path.join(scratch, `${slug(example.file, example.line)}.ts`),
              ],
              {
                cwd: repoRoot,
                env: environment,
                timeout: 120_000,
              },
            ).then(
              (ok) => ({ ...ok, code: 0 }),
              (error: { code?: number; stdout?: string; stderr?: string }) => ({
                stdout: error.stdout ?? "",
                stderr: error.stderr ?? "",
                code: error.code ?? 1,
              }),
            )
          : await run("bash", ["-euo", "pipefail", "-c", example.code], {
              cwd: workspace,
              env: environment,
              timeout: 120_000,
            }).then(
              (ok) => ({ ...ok, code: 0 }),
              (error: { code?: number; stdout?: string; stderr?: string }) => ({
                stdout: error.stdout ?? "",
                stderr: error.stderr ?? "",
                code: error.code ?? 1,
              }),
            );
      expect(result.code, `${title} exited ${result.code}\n${result.stderr}`).toBe(
        example.exitCode,
      );
    });
  }

  it("can find the built CLI for the shell examples", () => {
    if (examples.some((example) => example.language === "sh" && example.skip === undefined))
      expect(existsSync(cliBin)).toBe(true);
  });
});
