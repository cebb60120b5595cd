// Redaction recall (issue 33 item 5), over the seeded planted-secret corpus
// of packages/redact/src/planted-secrets.ts (built: dist/planted-secrets.js):
// fake secrets of every kind secretlint's recommended preset and gitleaks'
// default rules name, planted in every place a transcript holds text, beside
// benign lines that look close. Each transcript is redacted with the built
// `redactTranscript` (what `--redact` runs); the figures:
// - recall: planted secrets of which no 10-character run is left, ÷ planted;
// - benign lines changed ÷ benign lines (false positives).
// Not timed: both are counts. The kinds and places that lose any secret are
// named in the context.
import { existsSync } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "./packages.mjs";

const group = "redact";
const names = {
  recall: "planted secrets redacted (recall), seeded corpus",
  benign: "benign look-alike lines changed (false positives)",
};
/** The seed of the corpus (the recall test's, packages/redact/src/planted-secrets.test.ts). */
const seed = 20261206;

export async function redactRecall({ log }) {
  const dist = path.join(repoRoot, "packages", "redact", "dist");
  const files = ["index.js", "planted-secrets.js"].map((name) => path.join(dist, name));
  const missing = files.find((file) => !existsSync(file));
  if (missing !== undefined) {
    const skipped = `${path.relative(repoRoot, missing)} is not built`;
    return [
      { group, name: names.recall, skipped, target: "≥ 98 %" },
      { group, name: names.benign, skipped, target: "≤ 1 %" },
    ];
  }
  const [{ redactTranscript }, { plantedCorpus, measurePlanted }] = await Promise.all(
    files.map((file) => import(file)),
  );
  const corpus = plantedCorpus(seed);
  log(
    `redact: ${corpus.secrets.length} planted secrets in ${corpus.transcripts.length} transcripts, ${corpus.benign.length} benign lines (seed ${seed})`,
  );
  const redacted = [];
  for (const transcript of corpus.transcripts)
    redacted.push((await redactTranscript(transcript)).transcript);
  const measured = measurePlanted(corpus, redacted);
  const kinds = new Set(corpus.secrets.map((secret) => secret.kind));
  const places = new Set(corpus.secrets.map((secret) => secret.place));
  const lost = Object.entries(measured.byKind)
    .filter(([, entry]) => entry.survived > 0)
    .map(([kind, entry]) => `${kind} ${entry.survived}/${entry.planted}`);
  const recall = measured.recall * 100;
  const benign = measured.falsePositiveRate * 100;
  return [
    {
      group,
      name: names.recall,
      value: { median: recall },
      unit: "%",
      single: true,
      target: "≥ 98 %",
      met: recall >= 98,
      context: `${measured.planted - measured.survived.length} of ${measured.planted} fake secrets of ${kinds.size} kinds in ${places.size} places (text, thinking, shell command, tool-call JSON, Authorization header in tool-call JSON, tool output, escaped JSON in tool output, compaction, subagent, title, cwd, git branch); seed ${seed}; ${lost.length === 0 ? "every kind at 100 %" : `survived: ${lost.join(", ")}`}`,
    },
    {
      group,
      name: names.benign,
      value: { median: benign },
      unit: "%",
      single: true,
      target: "≤ 1 %",
      met: benign <= 1,
      context: `${measured.changed.length} of ${measured.benign} lines (commit ids, hashes, UUIDs, base64 image data, integrity strings, image digests, paths, URLs without a password, secret references by name)${measured.changed.length === 0 ? "" : `; first: ${JSON.stringify(measured.changed[0]).slice(0, 80)}`}`,
    },
  ];
}
