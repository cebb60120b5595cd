// Child process: the listing baseline — read and JSON.parse every thread
// file in a directory, then print the count (what a naive lister pays).
import { promises as fs } from "node:fs";
import * as path from "node:path";

const dir = process.argv[2];
let parsed = 0;
for (const name of await fs.readdir(dir)) {
  if (!name.endsWith(".json")) continue;
  const document = JSON.parse(await fs.readFile(path.join(dir, name), "utf8"));
  if (document.id !== undefined) parsed++;
}
process.stdout.write(`${parsed}\n`);
