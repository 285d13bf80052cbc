import jsQR from "jsqr";
import { PNG } from "pngjs";

/**
 * Reading QR codes back in tests: what a phone's camera would read from a QR code the app made.
 */

/** The text of the QR code in a PNG image (a screenshot, or `QRCode.toBuffer`), or null if none is found. */
export function decodeQrPng(png: Buffer): string | null {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? null;
}

/**
 * The text of a QR code drawn as SVG by the `qrcode` library (`QRCode.toString(text, { type:
 * "svg" })`): its dark modules are one path of `M x y`, `m dx dy` and `h n` commands (a run of n
 * modules on row ⌊y⌋). The modules are painted, `scale` pixels each, into an RGBA bitmap that
 * jsQR reads; null if it does not decode.
 */
export function decodeQrSvg(svg: string, scale = 6): string | null {
  const size = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1]);
  const d = /<path[^>]*stroke="#[0-9a-f]+"[^>]*d="([^"]+)"/i.exec(svg)?.[1];
  if (!size || !d) return null;
  const width = size * scale;
  const pixels = new Uint8ClampedArray(width * width * 4).fill(255);
  const paint = (column: number, row: number) => {
    for (let y = row * scale; y < (row + 1) * scale; y++)
      for (let x = column * scale; x < (column + 1) * scale; x++)
        pixels.fill(0, (y * width + x) * 4, (y * width + x) * 4 + 3);
  };
  let x = 0;
  let y = 0;
  for (const [, command, args] of d.matchAll(/([MmHh])([^MmHh]*)/g)) {
    const numbers = args!
      .trim()
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
    if (command === "M" || command === "m") {
      x = command === "M" ? numbers[0]! : x + numbers[0]!;
      y = command === "M" ? numbers[1]! : y + numbers[1]!;
    } else {
      const run = command === "h" ? numbers[0]! : numbers[0]! - x;
      for (let i = 0; i < run; i++) paint(x + i, Math.floor(y));
      x += run;
    }
  }
  return jsQR(pixels, width, width)?.data ?? null;
}
