// The install test: pack every published package, install the tarballs
// with npm into a fresh project (nothing from the workspace leaks in), run
// the installed `txcript` bin on a fixture, and type-check and run an ESM
// TypeScript consumer of @txcript/amp and @txcript/stream-json.
import { existsSync, promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, publishedPackages, repoRoot, run } from "./workspace.js";

const ampFixture = path.join(repoRoot, "fixtures/amp/legacy-thread.json");

let project: string;

beforeAll(async () => {
  project = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-install-"));
  const tarballs = path.join(project, "tarballs");
  await fs.mkdir(tarballs);
  const packed: Record<string, string> = {};
  for (const found of publishedPackages()) {
    assertBuilt(found);
    const { stdout } = await run("npm", ["pack", "--silent", "--pack-destination", tarballs], {
      cwd: found.directory,
      timeout: 120_000,
    });
    // npm pack does not rewrite pnpm's workspace: ranges, so point them at the tarballs below.
    packed[found.name] = `file:${path.join(tarballs, stdout.trim().split("\n").at(-1) as string)}`;
  }
  const manifest = {
    name: "txcript-install-test",
    private: true,
    type: "module",
    dependencies: { ...packed, zod: "^4.0.0", typescript: "5.9.3", "@types/node": "^20.19.0" },
    overrides: packed,
  };
  await fs.writeFile(path.join(project, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: project,
    timeout: 300_000,
  });
}, 400_000);

afterAll(async () => {
  if (project) await fs.rm(project, { recursive: true, force: true });
});

describe("installed from packed tarballs", () => {
  it("runs the txcript bin on a fixture", async () => {
    const bin = path.join(project, "node_modules/.bin/txcript");
    expect(existsSync(bin)).toBe(true);
    const version = await run(bin, ["--version"], { cwd: project });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const converted = await run(bin, ["convert", ampFixture, "--to", "stream_json"], {
      cwd: project,
    });
    const lines = converted.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ type: "system", subtype: "init" });
    expect(lines.at(-1)).toMatchObject({ type: "result" });
  });

  it("type-checks and runs an ESM TypeScript consumer of @txcript/amp and @txcript/stream-json", async () => {
    const consumer = `import { readFileSync } from "node:fs";
import { ampCodec } from "@txcript/amp";
import { streamJsonCodec } from "@txcript/stream-json";
import { convert, type Transcript } from "@txcript/core";

const text = readFileSync(process.argv[2] as string, "utf8");
const result = convert(text, ampCodec, streamJsonCodec);
const transcript: Transcript = result.transcript;
const back: Transcript = streamJsonCodec.toCommon(streamJsonCodec.parse(result.text));
console.log(JSON.stringify({ messages: transcript.messages.length, back: back.messages.length, lines: result.text.trim().split("\\n").length }));
`;
    await fs.writeFile(path.join(project, "consumer.ts"), consumer);
    await fs.writeFile(
      path.join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "NodeNext",
          moduleResolution: "NodeNext",
          target: "ES2022",
          strict: true,
          exactOptionalPropertyTypes: true,
          outDir: "out",
          types: ["node"],
          skipLibCheck: false,
        },
      }),
    );
    await run(path.join(project, "node_modules/.bin/tsc"), ["-p", "."], {
      cwd: project,
      timeout: 120_000,
    }).catch((error: { stdout?: string; message: string }) => {
      throw new Error(`tsc failed:\n${error.stdout ?? error.message}`);
    });
    const { stdout } = await run(process.execPath, ["out/consumer.js", ampFixture], {
      cwd: project,
    });
    const summary = JSON.parse(stdout) as { messages: number; back: number; lines: number };
    expect(summary.messages).toBeGreaterThan(0);
    expect(summary.back).toBe(summary.messages);
  });
});
