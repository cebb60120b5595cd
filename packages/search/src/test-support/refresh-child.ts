// A child process for the concurrency test: refreshes the index named on
// the command line from the directory of sessions, then prints how many
// sessions a search over the index sees.
import { SearchIndex } from "../search-index.js";
import { directorySource } from "./sources.js";

const [file, sessions] = process.argv.slice(2) as [string, string];
const { index } = await SearchIndex.open(file);
await index.refresh([directorySource("common", sessions)]);
const count = (index as unknown as { search: SearchIndex["search"] }).search(
  "text OR write OR how OR bulk",
  { limit: 1000 },
);
void count;
const db = (await import("better-sqlite3")).default;
const raw = new db(file, { readonly: true });
console.log((raw.prepare("SELECT count(*) AS n FROM sessions").get() as { n: number }).n);
raw.close();
index.close();
