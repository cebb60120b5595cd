// A person's query as an FTS5 match expression: "quoted text" is a literal
// phrase, every other word must appear (all-words matching), in any case and
// with or without accents (the index folds both). Nothing a person types is
// passed to FTS5 as syntax: every term is quoted, so `AND`, `*`, `:` or `-`
// are plain words.
import { TxcriptError } from "@txcript/core";

export interface ParsedQuery {
  /** The FTS5 MATCH expression. */
  match: string;
  /** The phrases and words, as given (for messages). */
  terms: string[];
}

function quote(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** Tokens FTS5's unicode61 tokenizer keeps: letters, digits, and nothing else. */
function hasWordCharacters(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}

export function parseQuery(query: string): ParsedQuery {
  const terms: string[] = [];
  const pattern = /"([^"]*)"|(\S+)/g;
  for (const match of query.matchAll(pattern)) {
    const term = (match[1] ?? match[2] ?? "").trim();
    if (term !== "" && hasWordCharacters(term)) terms.push(term);
  }
  if (terms.length === 0)
    throw new TxcriptError("USAGE", `nothing to search for in ${JSON.stringify(query)}`, {
      hint: 'give words to find (all must appear) or a "quoted phrase"',
    });
  return { match: terms.map(quote).join(" "), terms };
}
