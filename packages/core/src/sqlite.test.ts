import { describe, expect, it } from "vitest";
import { TxcriptError } from "./errors.js";
import { sqliteBinding } from "./sqlite.js";

class FakeDatabase {
  constructor(readonly file: string) {}
}

describe("sqliteBinding", () => {
  it("imports on the first call only, and every call gets the module's default export", async () => {
    let imports = 0;
    const binding = sqliteBinding(async () => {
      imports += 1;
      return { default: FakeDatabase };
    }, "test");
    expect(imports).toBe(0);
    const [first, second] = await Promise.all([binding(), binding()]);
    expect(await binding()).toBe(FakeDatabase);
    expect(first).toBe(FakeDatabase);
    expect(second).toBe(FakeDatabase);
    expect(imports).toBe(1);
    // Control: two loaders are two imports (the memo is per loader, not global).
    const other = sqliteBinding(async () => {
      imports += 1;
      return { default: FakeDatabase };
    }, "test");
    await other();
    expect(imports).toBe(2);
  });

  it("takes a module that is the constructor itself", async () => {
    expect(await sqliteBinding(async () => FakeDatabase, "test")()).toBe(FakeDatabase);
  });

  it("control: a module with no constructor is a TxcriptError naming the harness", async () => {
    for (const module of [{ default: 7 }, {}, null, "better-sqlite3"]) {
      const failing = sqliteBinding(async () => module, "crush")();
      await expect(failing).rejects.toBeInstanceOf(TxcriptError);
      await expect(failing).rejects.toMatchObject({ code: "IO", harness: "crush" });
    }
  });
});
