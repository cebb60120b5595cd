// Summarizes a V8 `.cpuprofile` (from `node --cpu-prof`): self time per
// function, largest first, with the file it lives in relative to the repo,
// and for the heaviest JavaScript functions the callers that time came
// through (a thin wrapper like stringifyJson says little on its own).
import { readFileSync } from "node:fs";
import * as path from "node:path";

function label(frame, repoRoot) {
  let where = frame.url || "(native)";
  if (where.startsWith("file://")) where = path.relative(repoRoot, new URL(where).pathname);
  const name = frame.functionName || "(anonymous)";
  return `${name} ${where}${frame.url ? `:${frame.lineNumber + 1}` : ""}`;
}

export function summarizeProfile(file, repoRoot, top = 10) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  const self = new Map();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    total += delta;
    self.set(id, (self.get(id) ?? 0) + delta);
  });
  const byFunction = new Map();
  for (const [id, time] of self) {
    const key = label(byNode.get(id).callFrame, repoRoot);
    const entry = byFunction.get(key) ?? { time: 0, callers: new Map() };
    entry.time += time;
    const parent = byNode.get(parentOf.get(id));
    if (parent) {
      const caller = label(parent.callFrame, repoRoot);
      entry.callers.set(caller, (entry.callers.get(caller) ?? 0) + time);
    }
    byFunction.set(key, entry);
  }
  return [...byFunction.entries()]
    .sort((a, b) => b[1].time - a[1].time)
    .slice(0, top)
    .map(([where, entry]) => ({
      where,
      ms: entry.time / 1000,
      share: entry.time / total,
      callers: [...entry.callers.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .filter(([, time]) => time / entry.time >= 0.05)
        .map(([caller, time]) => ({ caller, share: time / entry.time })),
    }));
}
