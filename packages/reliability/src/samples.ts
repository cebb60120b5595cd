// The native samples the mutations start from, for any fuzz target: the
// fixtures in fixtures/<harness>/, the real captures in ../shared/real/
// (read in place, never copied), and every Common fixture written by the
// target's own writer (so a harness that has no fixtures yet still has
// samples in its own format). Which harness a file belongs to comes from
// its directory's name (the harness id or an alias) or, failing that, from
// the harnesses' own `detect`.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { type CommonDocument, commonCodec, type Transcript } from "@txcript/core";
import type { ParserId, ParserUnderTest } from "./parsers.js";
import { fixturesRoot, realRoot, repoRoot } from "./paths.js";

export interface Sample {
  parser: ParserId;
  /** Where it came from, relative to the repo root (`../shared/real/...` for real captures). */
  name: string;
  text: string;
}

/** True when ../shared/real is present (tests that need it skip visibly otherwise). */
export const realPresent = existsSync(realRoot);

interface FoundFile {
  /** The directory it sits in, relative to its root ("" at the top). */
  directory: string;
  name: string;
  text: string;
}

function filesIn(root: string, depth: number): FoundFile[] {
  const found: FoundFile[] = [];
  const walk = (directory: string, level: number) => {
    if (!existsSync(directory)) return;
    for (const entry of readdirSync(directory, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory() && level < depth) walk(full, level + 1);
      else if (entry.isFile() && /\.jsonl?$/.test(entry.name))
        found.push({
          directory: path.relative(root, directory),
          name: path.relative(repoRoot, full),
          text: readFileSync(full, "utf8"),
        });
    }
  };
  walk(root, 0);
  return found;
}

let fixtureFiles: FoundFile[] | undefined;
let realFiles: FoundFile[] | undefined;

const spelling = (name: string) => name.toLowerCase().replaceAll("-", "_");

/** The target a directory is named after: its id or an alias, or a prefix of its id (`gemini`). */
function ownerOf(directory: string, targets: readonly ParserUnderTest[]): ParserId | undefined {
  if (directory === "") return undefined;
  const wanted = spelling(directory.split(path.sep)[0] as string);
  const named = targets.find(({ harness }) =>
    [harness.id, ...harness.aliases].some((name) => spelling(name) === wanted),
  );
  return (named ?? targets.find(({ id }) => spelling(id).startsWith(`${wanted}_`)))?.id;
}

function detected(text: string, targets: readonly ParserUnderTest[]): ParserId | undefined {
  return targets.find((target) => {
    try {
      return target.codec.detect(text);
    } catch {
      return false;
    }
  })?.id;
}

function commonTranscript(text: string): Transcript | undefined {
  try {
    return commonCodec.toCommon(commonCodec.parse(text) as CommonDocument, {});
  } catch {
    return undefined;
  }
}

const cache = new WeakMap<ParserUnderTest, Sample[]>();

/** The samples of one target among `targets` (ownership is decided among them). */
export function samplesFor(target: ParserUnderTest, targets: readonly ParserUnderTest[]): Sample[] {
  const known = cache.get(target);
  if (known) return known;
  fixtureFiles ??= filesIn(fixturesRoot, 1);
  realFiles ??= filesIn(realRoot, 2);
  const found: Sample[] = [];
  for (const file of fixtureFiles) {
    const common = file.name.endsWith(".common.json");
    if (common ? target.id === "common" : ownerOf(file.directory, targets) === target.id)
      found.push({ parser: target.id, name: file.name, text: file.text });
  }
  for (const file of realFiles) {
    const owner = ownerOf(file.directory, targets) ?? detected(file.text, targets);
    if (owner === target.id) found.push({ parser: target.id, name: file.name, text: file.text });
  }
  if (target.id !== "common") {
    for (const file of fixtureFiles.filter((candidate) =>
      candidate.name.endsWith(".common.json"),
    )) {
      const transcript = commonTranscript(file.text);
      if (transcript === undefined) continue;
      for (const writer of target.writers) {
        try {
          const text = writer.codec.serialize(writer.codec.fromCommon(transcript, writer.options));
          found.push({ parser: target.id, name: `${file.name} written by ${writer.label}`, text });
        } catch {
          // a writer that refuses this transcript has one sample fewer
        }
      }
    }
  }
  cache.set(target, found);
  return found;
}
