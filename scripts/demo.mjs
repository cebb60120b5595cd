// `pnpm demo`: the first thing to run on a fresh clone. Builds the packages
// quietly (turbo's own output is shown only when the build fails, so the
// first screen is txcript's), takes a bundled Amp fixture, converts it to
// stream-json and back to Amp with the built `txcript` bin, prints the
// stream-json, and views the round-tripped thread. It writes only to a temp
// dir. TXCRIPT_DEMO_BUILD names another build command (tests), "none" skips it.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = path.join(root, "packages/cli/dist/txcript.js");

const build = process.env.TXCRIPT_DEMO_BUILD ?? path.join(root, "node_modules/.bin/turbo");
if (build !== "none") {
  process.stderr.write("demo: building the packages (the first run takes a minute)…\n");
  const built = spawnSync(build, ["run", "build", "--output-logs=errors-only"], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" },
  });
  if (built.status !== 0) {
    process.stderr.write(`${built.stdout ?? ""}${built.stderr ?? ""}`);
    console.error(`demo: the build failed (${built.error?.message ?? `exit ${built.status}`})`);
    process.exit(1);
  }
}
if (!existsSync(bin)) {
  console.error("demo: packages/cli/dist/txcript.js is missing; run `pnpm demo` (it builds first)");
  process.exit(1);
}
const fixtures = path.join(root, "fixtures/amp");
const candidates = existsSync(fixtures)
  ? readdirSync(fixtures)
      .filter((name) => name.endsWith(".json") && !name.endsWith(".common.json"))
      .sort()
  : [];
const preferred =
  process.argv[2] ?? (candidates.includes("legacy-thread.json") ? "legacy-thread.json" : undefined);
const fixture = preferred ?? candidates[0];
if (fixture === undefined) {
  console.error(`demo: no Amp fixture in ${path.relative(root, fixtures)}/`);
  process.exit(1);
}
const input = path.isAbsolute(fixture) ? fixture : path.join(fixtures, fixture);
const work = mkdtempSync(path.join(tmpdir(), "txcript-demo-"));
const streamFile = path.join(work, "thread.jsonl");
const ampFile = path.join(work, "thread.json");
const show = (file) =>
  path.relative(root, file).startsWith("..") ? file : path.relative(root, file);

function txcript(...args) {
  console.log(
    `\n$ txcript ${args.map((arg) => (arg.startsWith("/") ? show(arg) : arg)).join(" ")}`,
  );
  execFileSync(process.execPath, [bin, ...args], { stdio: "inherit", cwd: root });
}

try {
  txcript("convert", input, "--to", "stream_json", "-o", streamFile);
  console.log(`\n── ${show(streamFile)} (stream-json) ──`);
  process.stdout.write(readFileSync(streamFile, "utf8"));
  txcript("convert", streamFile, "--to", "amp", "-o", ampFile);
  txcript("view", ampFile);
} finally {
  rmSync(work, { recursive: true, force: true });
}
