// The parsers under test and the native samples their mutations start from:
// every fixture in fixtures/<harness>/ and every real capture in
// ../shared/real/ (read in place, never copied). A codec that has not landed
// in its package's public API yet is listed in `missingParsers` instead.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import * as amp from "@txcript/amp";
import * as claudeCode from "@txcript/claude-code";
import { type Codec, type ConversionOptions, commonCodec } from "@txcript/core";
import * as streamJson from "@txcript/stream-json";

// biome-ignore lint/suspicious/noExplicitAny: parsers of any native body are fuzzed alike
export type AnyCodec = Codec<any, any, any>;

export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const repoRoot = path.resolve(packageRoot, "../..");
export const fixturesRoot = path.join(repoRoot, "fixtures");
export const realRoot = path.resolve(repoRoot, "../shared/real");

export type ParserId = "amp" | "stream_json" | "claude_code" | "common";
/** How a parser's text splits into JSON units: one document, or one value per line. */
export type Layout = "json" | "jsonl";

export interface ParserUnderTest {
  id: ParserId;
  codec: AnyCodec;
  layout: Layout;
  readOptions: ConversionOptions & Record<string, unknown>;
}

export interface Sample {
  parser: ParserId;
  /** Where it came from, relative to the repo root (`../shared/real/...` for real captures). */
  name: string;
  text: string;
}

// Exports looked up by name: a codec still being written is reported, not a type error.
function exported(module: object, name: string): AnyCodec | undefined {
  const value = (module as Record<string, unknown>)[name];
  return typeof value === "object" && value !== null && "parse" in value
    ? (value as AnyCodec)
    : undefined;
}

const startTime = new Date("2026-01-01T00:00:00.000Z");

const candidates: { id: ParserId; codec: AnyCodec | undefined; layout: Layout }[] = [
  { id: "common", codec: commonCodec, layout: "json" },
  { id: "amp", codec: exported(amp, "ampCodec"), layout: "json" },
  { id: "stream_json", codec: exported(streamJson, "streamJsonCodec"), layout: "jsonl" },
  { id: "claude_code", codec: exported(claudeCode, "claudeCodeCodec"), layout: "jsonl" },
];

export const parsers: ParserUnderTest[] = candidates.flatMap(({ id, codec, layout }) =>
  codec === undefined ? [] : [{ id, codec, layout, readOptions: { startTime } }],
);

/** Parsers whose package does not export a codec yet (the tests say so visibly). */
export const missingParsers: ParserId[] = candidates
  .filter((candidate) => candidate.codec === undefined)
  .map((candidate) => candidate.id);

export function parserById(id: ParserId): ParserUnderTest | undefined {
  return parsers.find((parser) => parser.id === id);
}

const fixtureDirectories: Record<string, ParserId> = {
  amp: "amp",
  "stream-json": "stream_json",
  "claude-code": "claude_code",
};

function listFiles(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(directory, entry.name))
    .sort();
}

/** The parser a real capture belongs to, by its name (see ../shared/real/README.md). */
function realParser(file: string): ParserId | undefined {
  const base = path.basename(file);
  if (base === "README.md") return undefined;
  if (file.includes(`${path.sep}claude-code${path.sep}`)) return "claude_code";
  if (base.startsWith("amp-stream")) return "stream_json";
  if (base.startsWith("amp-") && base.endsWith(".json")) return "amp";
  return undefined;
}

let cached: Sample[] | undefined;

/** Every fixture (native and Common) and every real capture, read once. */
export function samples(): Sample[] {
  if (cached) return cached;
  const found: Sample[] = [];
  for (const [directory, parser] of Object.entries(fixtureDirectories)) {
    for (const file of listFiles(path.join(fixturesRoot, directory))) {
      const name = path.relative(repoRoot, file);
      if (file.endsWith(".common.json")) found.push({ parser: "common", name, text: read(file) });
      else if (/\.jsonl?$/.test(file)) found.push({ parser, name, text: read(file) });
    }
  }
  for (const file of [...listFiles(realRoot), ...listFiles(path.join(realRoot, "claude-code"))]) {
    const parser = realParser(file);
    if (parser) found.push({ parser, name: path.relative(repoRoot, file), text: read(file) });
  }
  cached = found.filter((sample) => parserById(sample.parser) !== undefined);
  return cached;
}

export function samplesOf(parser: ParserId): Sample[] {
  return samples().filter((sample) => sample.parser === parser);
}

/** True when ../shared/real is present (tests that need it skip visibly otherwise). */
export const realPresent = existsSync(realRoot);

function read(file: string): string {
  return readFileSync(file, "utf8");
}
