// A line diff for Edit and MultiEdit calls: common prefix and suffix trimmed,
// then a longest-common-subsequence table over what is left while it stays
// small; past that the change shows as all removed, then all added (still
// exact, only less tidy). Unchanged runs longer than a few lines fold.

export type DiffLine =
  | { kind: "same" | "add" | "del"; text: string }
  | { kind: "gap"; count: number };

/** Cells of the LCS table allowed before falling back to remove-all/add-all. */
const maxCells = 1_000_000;
/** Unchanged lines kept on each side of a change. */
const contextLines = 3;

export function diffLines(before: string, after: string): DiffLine[] {
  const a = before.split("\n");
  const b = after.split("\n");
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix += 1;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  )
    suffix += 1;
  const middleA = a.slice(prefix, a.length - suffix);
  const middleB = b.slice(prefix, b.length - suffix);
  const lines: DiffLine[] = [
    ...a.slice(0, prefix).map((text) => ({ kind: "same" as const, text })),
    ...middle(middleA, middleB),
    ...a.slice(a.length - suffix).map((text) => ({ kind: "same" as const, text })),
  ];
  return fold(lines);
}

function middle(a: string[], b: string[]): DiffLine[] {
  if ((a.length + 1) * (b.length + 1) > maxCells)
    return [
      ...a.map((text) => ({ kind: "del" as const, text })),
      ...b.map((text) => ({ kind: "add" as const, text })),
    ];
  // lengths[i][j]: LCS length of a[i..] and b[j..], in one flat array.
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i -= 1)
    for (let j = b.length - 1; j >= 0; j -= 1)
      lengths[i * width + j] =
        a[i] === b[j]
          ? (lengths[(i + 1) * width + j + 1] as number) + 1
          : Math.max(lengths[(i + 1) * width + j] as number, lengths[i * width + j + 1] as number);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ kind: "same", text: a[i] as string });
      i += 1;
      j += 1;
    } else if ((lengths[(i + 1) * width + j] as number) >= (lengths[i * width + j + 1] as number)) {
      out.push({ kind: "del", text: a[i] as string });
      i += 1;
    } else {
      out.push({ kind: "add", text: b[j] as string });
      j += 1;
    }
  }
  for (; i < a.length; i += 1) out.push({ kind: "del", text: a[i] as string });
  for (; j < b.length; j += 1) out.push({ kind: "add", text: b[j] as string });
  return out;
}

/** Runs of unchanged lines longer than twice the context fold into a gap line. */
function fold(lines: DiffLine[]): DiffLine[] {
  const out: DiffLine[] = [];
  let index = 0;
  while (index < lines.length) {
    if (lines[index]?.kind !== "same") {
      out.push(lines[index] as DiffLine);
      index += 1;
      continue;
    }
    let end = index;
    while (end < lines.length && lines[end]?.kind === "same") end += 1;
    const keepBefore = index === 0 ? 0 : contextLines;
    const keepAfter = end === lines.length ? 0 : contextLines;
    const run = end - index;
    if (run > keepBefore + keepAfter + 1) {
      out.push(...lines.slice(index, index + keepBefore));
      out.push({ kind: "gap", count: run - keepBefore - keepAfter });
      out.push(...lines.slice(end - keepAfter, end));
    } else out.push(...lines.slice(index, end));
    index = end;
  }
  return out;
}
