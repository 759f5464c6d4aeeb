// Writes the PWA icons as PNG bytes (zlib from Node, no image library): a teal tile with three
// rising bars and a trend line. Run: node tests/dashboard/tools/make-icons.mjs
import { writeFileSync, mkdirSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const CRC = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function png(size, pixel) {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const [r, g, b, a] = pixel(x / size, y / size);
      const o = y * (size * 4 + 1) + 1 + x * 4;
      raw[o] = r;
      raw[o + 1] = g;
      raw[o + 2] = b;
      raw[o + 3] = a;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// maskable: the artwork within the central 80% safe zone and a full-bleed background.
function art(maskable) {
  const inset = maskable ? 0.2 : 0.1;
  return (u, v) => {
    const bg = [15, 118, 110, 255];
    if (!maskable) {
      // Rounded tile: corner radius 22% of the size.
      const r = 0.22;
      const cx = Math.min(Math.max(u, r), 1 - r);
      const cy = Math.min(Math.max(v, r), 1 - r);
      if ((u - cx) ** 2 + (v - cy) ** 2 > r * r) return [0, 0, 0, 0];
    }
    const x = (u - inset) / (1 - 2 * inset);
    const y = (v - inset) / (1 - 2 * inset);
    const bars = [
      [0.12, 0.3, 0.62],
      [0.4, 0.58, 0.45],
      [0.68, 0.86, 0.25],
    ];
    for (const [x0, x1, top] of bars) if (x >= x0 && x <= x1 && y >= top && y <= 0.88) return [236, 253, 245, 255];
    // Trend line from (0.1, 0.55) to (0.9, 0.08), 0.045 thick.
    const [ax, ay, bx, by] = [0.08, 0.5, 0.92, 0.06];
    const t = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
    const d = Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay)));
    if (d < 0.035) return [253, 224, 71, 255];
    return bg;
  };
}

const out = new URL('../../../static/icons/', import.meta.url);
mkdirSync(out, { recursive: true });
writeFileSync(new URL('icon-192.png', out), png(192, art(false)));
writeFileSync(new URL('icon-512.png', out), png(512, art(false)));
writeFileSync(new URL('icon-maskable-512.png', out), png(512, art(true)));
console.log('icons written');
