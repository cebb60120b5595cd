// The workspace's dependency graph (dependencies and devDependencies between
// @txcript packages) has no cycle: turbo orders builds by it and refuses a
// cyclic graph, which would stop `pnpm test` before any test runs.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./workspace.js";

function graph(): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const entry of readdirSync(path.join(repoRoot, "packages"))) {
    let manifest: Record<string, Record<string, string> | string>;
    try {
      manifest = JSON.parse(
        readFileSync(path.join(repoRoot, "packages", entry, "package.json"), "utf8"),
      );
    } catch {
      continue;
    }
    const all = { ...(manifest.dependencies as object), ...(manifest.devDependencies as object) };
    edges.set(
      manifest.name as string,
      Object.keys(all).filter((name) => name.startsWith("@txcript/")),
    );
  }
  return edges;
}

describe("the workspace dependency graph", () => {
  it("has no cycle", () => {
    const edges = graph();
    const state = new Map<string, "open" | "done">();
    const cycles: string[] = [];
    const visit = (name: string, trail: string[]) => {
      if (state.get(name) === "done") return;
      if (state.get(name) === "open") {
        cycles.push([...trail.slice(trail.indexOf(name)), name].join(" → "));
        return;
      }
      state.set(name, "open");
      for (const next of edges.get(name) ?? []) visit(next, [...trail, name]);
      state.set(name, "done");
    };
    for (const name of edges.keys()) visit(name, []);
    expect(edges.size).toBeGreaterThan(10);
    expect(cycles).toEqual([]);
  });
});
