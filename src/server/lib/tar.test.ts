/**
 * The tar writer and reader of the backups (decision 013): what one writes the other reads back,
 * the system's tar reads it too, and a damaged or hostile archive is refused.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type TarEntry, tar, tarHeader, untar } from "./tar";

async function collect(source: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of source) parts.push(part);
  return Buffer.concat(parts);
}

async function entriesOf(archive: Buffer, chunkSize = archive.length): Promise<TarEntry[]> {
  async function* chunks() {
    for (let i = 0; i < archive.length; i += chunkSize) yield archive.subarray(i, i + chunkSize);
  }
  const out: TarEntry[] = [];
  for await (const entry of untar(chunks())) out.push(entry);
  return out;
}

const systemTar = (() => {
  try {
    execFileSync("tar", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

const ENTRIES: TarEntry[] = [
  { name: "manifest.json", data: Buffer.from('{"a":1}') },
  { name: "files/0b9c.bin", data: Buffer.alloc(1024, 7) },
  { name: "files/empty.bin", data: Buffer.alloc(0) },
  { name: "secrets/file-key", data: Buffer.from("a".repeat(513)), mode: 0o600 },
];

describe("tar", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "hss-tar-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads back what it wrote, whatever the chunk sizes", async () => {
    const archive = await collect(tar(ENTRIES));
    expect(archive.length % 512).toBe(0);
    for (const chunkSize of [archive.length, 1000, 513, 7]) {
      const read = await entriesOf(archive, chunkSize);
      expect(read.map((e) => e.name)).toEqual(ENTRIES.map((e) => e.name));
      read.forEach((entry, i) => {
        expect(entry.data.equals(ENTRIES[i]!.data)).toBe(true);
        expect(entry.mode).toBe(0o600);
      });
    }
  });

  it.skipIf(!systemTar)(
    "writes archives the system's tar lists and extracts, and reads the system's",
    async () => {
      const file = path.join(dir, "ours.tar");
      writeFileSync(file, await collect(tar(ENTRIES)));
      expect(execFileSync("tar", ["tf", file], { encoding: "utf8" }).trim().split("\n")).toEqual(
        ENTRIES.map((e) => e.name),
      );
      const out = path.join(dir, "out");
      mkdirSync(out);
      execFileSync("tar", ["xf", file, "-C", out]);
      expect(readFileSync(path.join(out, "secrets/file-key"), "utf8")).toBe("a".repeat(513));
      expect(statSync(path.join(out, "secrets/file-key")).mode & 0o777).toBe(0o600);

      // GNU tar's own format, with directory entries.
      const theirs = path.join(dir, "theirs.tar");
      execFileSync("tar", ["cf", theirs, "-C", out, "files", "secrets"]);
      const read = await entriesOf(readFileSync(theirs));
      expect(read.map((e) => e.name).sort()).toEqual([
        "files/0b9c.bin",
        "files/empty.bin",
        "secrets/file-key",
      ]);
      expect(read.find((e) => e.name === "files/0b9c.bin")!.data.equals(Buffer.alloc(1024, 7))).toBe(true);
    },
  );

  it("refuses names that are absolute, climb out of the folder, or are too long", () => {
    for (const name of [
      "/etc/passwd",
      "../x",
      "files/../../x",
      "files//x",
      "./x",
      "",
      "a".repeat(101),
      "a b",
    ]) {
      expect(() => tarHeader(name, 1), name).toThrow(/tar entry name/);
    }
  });

  it("refuses to read a hostile name written by another tool", async () => {
    const header = tarHeader("xx/passwd", 0);
    header.write("../passwd", 0, 100, "ascii");
    header.fill(0, 9, 100);
    header.fill(" ", 148, 156);
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8, "ascii");
    await expect(entriesOf(Buffer.concat([header, Buffer.alloc(1024)]))).rejects.toThrow(/tar entry name/);
  });

  it("refuses a damaged header and a truncated archive", async () => {
    const archive = await collect(tar(ENTRIES));
    const damaged = Buffer.from(archive);
    damaged[5] = damaged[5]! ^ 1;
    await expect(entriesOf(damaged)).rejects.toThrow(/checksum/);
    await expect(entriesOf(archive.subarray(0, 512 + 100))).rejects.toThrow(/truncated/);
  });
});
