/**
 * A small tar (POSIX ustar) writer and reader for the backup archives (decision 013): regular
 * files with short relative names only. The archives open with any tar (`tar tzf backup.tar.gz`);
 * the reader also accepts what GNU tar writes for such files (directories and pax headers are
 * skipped). Entries are held in memory one at a time.
 */

const BLOCK = 512;
/** Largest entry the ustar size field holds: 8 GiB - 1. */
const MAX_SIZE = 8 ** 11 - 1;

/** One file of an archive: a relative path such as `files/ab12.bin`, its bytes and permissions. */
export interface TarEntry {
  name: string;
  data: Buffer;
  /** Unix permission bits; 0o600 by default (backups hold personal data and keys). */
  mode?: number;
  mtime?: Date;
}

/** Refuses a name that is empty, absolute, climbs out (`..`), is not ASCII, or exceeds 100 bytes. */
export function checkEntryName(name: string): void {
  const problem =
    !name || name.length > 100
      ? "must be 1 to 100 characters"
      : !/^[\x21-\x7e]+$/.test(name)
        ? "must be printable ASCII without spaces"
        : name.startsWith("/") || name.split("/").some((part) => part === ".." || part === "." || part === "")
          ? "must be a relative path without . or .. parts"
          : null;
  if (problem) throw new Error(`tar entry name ${JSON.stringify(name.slice(0, 120))} ${problem}`);
}

/** Writes `value` as zero-padded octal of `width - 1` digits and a NUL into `header` at `offset`. */
function octal(header: Buffer, offset: number, width: number, value: number) {
  header.write(`${value.toString(8).padStart(width - 1, "0")}\0`, offset, width, "ascii");
}

/** The 512-byte ustar header of a regular file. */
export function tarHeader(name: string, size: number, mode = 0o600, mtime = new Date()): Buffer {
  checkEntryName(name);
  if (!Number.isInteger(size) || size < 0 || size > MAX_SIZE)
    throw new Error(`tar entry ${name} is too large`);
  const header = Buffer.alloc(BLOCK);
  header.write(name, 0, 100, "ascii");
  octal(header, 100, 8, mode & 0o7777);
  octal(header, 108, 8, 0);
  octal(header, 116, 8, 0);
  octal(header, 124, 12, size);
  octal(header, 136, 12, Math.max(0, Math.floor(mtime.getTime() / 1000)));
  header.write("0", 156, 1, "ascii");
  header.write("ustar\0", 257, 6, "ascii");
  header.write("00", 263, 2, "ascii");
  header.fill(" ", 148, 156);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8, "ascii");
  return header;
}

/** The archive of `entries`, as a sequence of buffers (headers, contents, padding, end marker). */
export async function* tar(entries: AsyncIterable<TarEntry> | Iterable<TarEntry>): AsyncGenerator<Buffer> {
  for await (const entry of entries) {
    yield tarHeader(entry.name, entry.data.length, entry.mode, entry.mtime);
    if (entry.data.length) yield entry.data;
    const padding = (BLOCK - (entry.data.length % BLOCK)) % BLOCK;
    if (padding) yield Buffer.alloc(padding);
  }
  yield Buffer.alloc(2 * BLOCK);
}

/** Reads exact byte counts from a stream of buffers. */
class ByteReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private readonly iterator: AsyncIterator<Buffer>;

  constructor(source: AsyncIterable<Buffer>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  /** The next `n` bytes; fewer only at the end of the stream. */
  async read(n: number): Promise<Buffer> {
    while (this.buffered < n) {
      const next = await this.iterator.next();
      if (next.done) break;
      this.chunks.push(next.value);
      this.buffered += next.value.length;
    }
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length ? [rest] : [];
    this.buffered = rest.length;
    return out;
  }
}

/** A NUL-terminated text field of a header. */
function field(header: Buffer, offset: number, width: number): string {
  const raw = header.subarray(offset, offset + width);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? width : end).toString("ascii");
}

/** An octal number field of a header (spaces and NULs around it allowed). */
function octalField(header: Buffer, offset: number, width: number, what: string): number {
  if ((header[offset]! & 0x80) !== 0) throw new Error(`tar: ${what} in base-256 is not supported`);
  const text = field(header, offset, width).trim();
  if (!/^[0-7]*$/.test(text)) throw new Error(`tar: ${what} is not an octal number`);
  return text ? Number.parseInt(text, 8) : 0;
}

/**
 * The regular files of a tar archive, in order, each with its mode. Throws on a damaged header
 * (checksum), a truncated archive, an unsafe name (see `checkEntryName`), an entry larger than
 * `maxEntryBytes`, or an entry type other than file, directory or pax header.
 */
export async function* untar(
  source: AsyncIterable<Buffer>,
  options: { maxEntryBytes?: number } = {},
): AsyncGenerator<TarEntry> {
  const maxEntryBytes = options.maxEntryBytes ?? 4 * 1024 ** 3;
  const reader = new ByteReader(source);
  for (;;) {
    const header = await reader.read(BLOCK);
    if (header.length === 0 || header.every((byte) => byte === 0)) return;
    if (header.length < BLOCK) throw new Error("tar: the archive is truncated");
    const stored = octalField(header, 148, 8, "checksum");
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
    if (sum !== stored) throw new Error("tar: a header is damaged (checksum)");
    const size = octalField(header, 124, 12, "size");
    if (size > maxEntryBytes) throw new Error(`tar: an entry of ${size} bytes is larger than allowed`);
    const type = String.fromCharCode(header[156]!);
    const padded = Math.ceil(size / BLOCK) * BLOCK;
    const body = await reader.read(padded);
    if (body.length < padded) throw new Error("tar: the archive is truncated");
    if (type === "5" || type === "x" || type === "g") continue;
    if (type !== "0" && type !== "\0")
      throw new Error(`tar: entries of type ${JSON.stringify(type)} are not supported`);
    // Only POSIX ustar keeps a name prefix there (GNU tar's own format keeps other fields).
    const prefix = header.toString("ascii", 257, 263) === "ustar\0" ? field(header, 345, 155) : "";
    const base = field(header, 0, 100);
    const name = prefix ? `${prefix}/${base}` : base;
    checkEntryName(name);
    yield {
      name,
      data: Buffer.from(body.subarray(0, size)),
      mode: octalField(header, 100, 8, "mode"),
      mtime: new Date(octalField(header, 136, 12, "mtime") * 1000),
    };
  }
}
