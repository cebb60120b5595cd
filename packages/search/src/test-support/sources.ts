// Test support: a store of Common documents in a directory (one
// `<id>.common.json` per session), as an index source.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import {
  type CommonDocument,
  commonCodec,
  type Discovered,
  type Store,
  type Transcript,
  writeFileAtomic,
} from "@txcript/core";
import type { IndexSource } from "../search-index.js";

export class DirectoryStore implements Store<CommonDocument> {
  readonly harness: string;
  readonly root: string;
  constructor(harness: string, root: string) {
    this.harness = harness;
    this.root = root;
  }
  async *discover(): AsyncIterable<Discovered> {
    const names = await fs.readdir(this.root).catch(() => [] as string[]);
    for (const name of names.filter((entry) => entry.endsWith(".common.json")).sort()) {
      const file = path.join(this.root, name);
      const stat = await fs.stat(file);
      yield {
        harness: this.harness,
        id: name.slice(0, -".common.json".length),
        path: file,
        updatedAt: stat.mtime.toISOString(),
      };
    }
  }
  async load(id: string): Promise<CommonDocument> {
    return commonCodec.parse(await fs.readFile(path.join(this.root, `${id}.common.json`), "utf8"));
  }
  async save(document: CommonDocument) {
    const file = path.join(this.root, `${document.meta.id}.common.json`);
    await writeFileAtomic(file, commonCodec.serialize(document), { overwrite: true });
    return { id: document.meta.id, path: file };
  }
  async delete(id: string) {
    await fs.rm(path.join(this.root, `${id}.common.json`), { force: true });
  }
}

export function directorySource(harness: string, root: string): IndexSource {
  return {
    harness,
    store: new DirectoryStore(harness, root) as Store<unknown>,
    read: (native) => commonCodec.toCommon(native as CommonDocument),
  };
}

const at = "2026-03-01T10:00:00.000Z";

export function session(
  id: string,
  texts: string[],
  extra: Partial<Transcript["meta"]> = {},
): CommonDocument {
  return commonCodec.fromCommon({
    meta: { id, timestamp: at, ...extra },
    messages: texts.map((text, index) => ({
      role: index % 2 ? "assistant" : "user",
      timestamp: at,
      content: [{ type: "text", text }],
    })),
  });
}

export async function writeSession(root: string, document: CommonDocument): Promise<string> {
  await fs.mkdir(root, { recursive: true });
  const file = path.join(root, `${document.meta.id}.common.json`);
  await fs.writeFile(file, commonCodec.serialize(document));
  return file;
}
