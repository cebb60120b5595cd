// Summarizes a V8 `.cpuprofile` (from `node --cpu-prof`): self time per
// function, largest first, with the file it lives in relative to the repo.
// This is what RESULTS.md quotes when a target is missed.
import { readFileSync } from "node:fs";
import * as path from "node:path";

export function summarizeProfile(file, repoRoot, top = 10) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    total += delta;
    self.set(id, (self.get(id) ?? 0) + delta);
  });
  const byFunction = new Map();
  for (const [id, time] of self) {
    const frame = byNode.get(id).callFrame;
    let where = frame.url || "(native)";
    if (where.startsWith("file://")) where = path.relative(repoRoot, new URL(where).pathname);
    const name = frame.functionName || "(anonymous)";
    const key = `${name} ${where}${frame.url ? `:${frame.lineNumber + 1}` : ""}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + time);
  }
  return [...byFunction.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([where, time]) => ({ where, ms: time / 1000, share: time / total }));
}
