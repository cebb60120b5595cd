// Compact storage for a streaming reader's first pass over a file of a
// million lines: strings kept once as small integers (a Map of a million
// uuid strings costs ~85 MB; this costs their UTF-16 code units and two
// int32 per string), and growable int32 columns.

/** Strings numbered 0, 1, 2, … in the order first seen; `id` adds, `find` only looks. */
export class StringIds {
  #units = new Uint16Array(1 << 16);
  #used = 0;
  #starts = new Int32Array(1 << 10);
  #lengths = new Int32Array(1 << 10);
  #count = 0;
  /** Open addressing: id + 1, 0 for an empty slot. */
  #table = new Int32Array(1 << 11);

  get size(): number {
    return this.#count;
  }

  static #hash(text: string): number {
    let hash = 0x811c9dc5;
    for (let index = 0; index < text.length; index += 1) {
      hash ^= text.charCodeAt(index);
      hash = Math.imul(hash, 0x01000193);
    }
    return hash >>> 0;
  }

  #equals(id: number, text: string): boolean {
    const length = this.#lengths[id] as number;
    if (length !== text.length) return false;
    const start = this.#starts[id] as number;
    for (let index = 0; index < length; index += 1)
      if (this.#units[start + index] !== text.charCodeAt(index)) return false;
    return true;
  }

  #slot(text: string): number {
    const mask = this.#table.length - 1;
    let slot = StringIds.#hash(text) & mask;
    for (;;) {
      const entry = this.#table[slot] as number;
      if (entry === 0 || this.#equals(entry - 1, text)) return slot;
      slot = (slot + 1) & mask;
    }
  }

  /** The id of `text`, or -1 when it was never added. */
  find(text: string): number {
    return (this.#table[this.#slot(text)] as number) - 1;
  }

  /** The id of `text`, adding it when new. */
  id(text: string): number {
    const slot = this.#slot(text);
    const entry = this.#table[slot] as number;
    if (entry !== 0) return entry - 1;
    const id = this.#count;
    if (id === this.#starts.length) {
      this.#starts = grow(this.#starts, id * 2);
      this.#lengths = grow(this.#lengths, id * 2);
    }
    if (this.#used + text.length > this.#units.length) {
      const units = new Uint16Array(Math.max(this.#units.length * 2, this.#used + text.length));
      units.set(this.#units.subarray(0, this.#used));
      this.#units = units;
    }
    for (let index = 0; index < text.length; index += 1)
      this.#units[this.#used + index] = text.charCodeAt(index);
    this.#starts[id] = this.#used;
    this.#lengths[id] = text.length;
    this.#used += text.length;
    this.#count += 1;
    this.#table[slot] = id + 1;
    if (this.#count * 2 > this.#table.length) this.#rehash();
    return id;
  }

  /** The string of `id`. */
  text(id: number): string {
    const start = this.#starts[id] as number;
    const end = start + (this.#lengths[id] as number);
    let text = "";
    for (let from = start; from < end; from += 4096)
      text += String.fromCharCode(...this.#units.subarray(from, Math.min(end, from + 4096)));
    return text;
  }

  #rehash(): void {
    const table = new Int32Array(this.#table.length * 2);
    const mask = table.length - 1;
    for (let id = 0; id < this.#count; id += 1) {
      const start = this.#starts[id] as number;
      let hash = 0x811c9dc5;
      for (let index = 0; index < (this.#lengths[id] as number); index += 1) {
        hash ^= this.#units[start + index] as number;
        hash = Math.imul(hash, 0x01000193);
      }
      let slot = (hash >>> 0) & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = id + 1;
    }
    this.#table = table;
  }
}

function grow(array: Int32Array, length: number): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(length);
  grown.set(array);
  return grown;
}

/** A growable column of int32 values. */
export class IntColumn {
  #values: Int32Array;
  #length = 0;

  constructor(capacity = 1024) {
    this.#values = new Int32Array(capacity);
  }

  get length(): number {
    return this.#length;
  }

  push(value: number): void {
    if (this.#length === this.#values.length)
      this.#values = grow(this.#values, this.#values.length * 2);
    this.#values[this.#length] = value;
    this.#length += 1;
  }

  at(index: number): number {
    return this.#values[index] as number;
  }

  set(index: number, value: number): void {
    this.#values[index] = value;
  }
}

function growFloat(array: Float64Array, length: number): Float64Array<ArrayBuffer> {
  const grown = new Float64Array(length);
  grown.set(array);
  return grown;
}

/** A growable column of numbers (float64: any integer a count can reach, exactly). */
export class NumberColumn {
  #values: Float64Array;
  #length = 0;

  constructor(capacity = 1024) {
    this.#values = new Float64Array(Math.max(1, capacity));
  }

  get length(): number {
    return this.#length;
  }

  push(value: number): void {
    if (this.#length === this.#values.length)
      this.#values = growFloat(this.#values, this.#values.length * 2);
    this.#values[this.#length] = value;
    this.#length += 1;
  }

  at(index: number): number {
    return this.#values[index] as number;
  }
}
