// mjcf-placeholder.js: a plain grey PNG to stand in for a texture a model names whose file is
// not among its files. Tumble draws no textures (its shapes have its own colours), so a missing
// texture changes nothing Tumble shows or computes; but MuJoCo's compiler refuses a model whose
// texture file it cannot read, and models are often shared without their images (the suite's dog
// names two that the suite's folder does not hold). The image is w x h pixels, one per cell of the
// texture's gridsize (a cube map or skybox in one file is a grid of square faces), stored without
// compression (zlib's "stored" blocks), with the CRC-32 and Adler-32 the format asks for.

const CRC = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const u32 = (v) => [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];

/** A PNG chunk: length, type, data, CRC of type and data. */
function chunk(type, data) {
  const body = [...type].map((ch) => ch.charCodeAt(0)).concat(data);
  return [...u32(data.length), ...body, ...u32(crc32(body))];
}

/** The bytes of a grey RGB PNG of `w` x `h` pixels (1 to 64 each). */
export function placeholderPng(w, h) {
  if (!(Number.isInteger(w) && Number.isInteger(h) && w >= 1 && h >= 1 && w <= 64 && h <= 64)) throw new Error(`a placeholder image of ${w} x ${h} pixels`);
  const raw = [];
  for (let y = 0; y < h; y++) raw.push(0, ...new Array(3 * w).fill(128)); // filter 0, then the row
  let a = 1, b = 0; // Adler-32
  for (const v of raw) { a = (a + v) % 65521; b = (b + a) % 65521; }
  // one stored block (at most 64 x (1 + 192) bytes < 65535): final, uncompressed
  const zlib = [0x78, 0x01, 0x01, raw.length & 0xff, raw.length >>> 8, ~raw.length & 0xff, (~raw.length >>> 8) & 0xff, ...raw, ...u32(((b << 16) | a) >>> 0)];
  const ihdr = [...u32(w), ...u32(h), 8, 2, 0, 0, 0]; // 8 bits, RGB, deflate, filter 0, no interlace
  return new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...chunk('IHDR', ihdr), ...chunk('IDAT', zlib), ...chunk('IEND', [])]);
}

/** The placeholder for the texture element with attributes `attrs` (a Map) and its file attribute
 * `attr` ('file', or a cube face's 'fileright', ...): one pixel per grid cell for `file` (gridsize
 * "rows columns", default 1 1), one pixel for a face. */
export function texturePlaceholder(attrs, attr) {
  if (attr !== 'file') return placeholderPng(1, 1);
  const [rows, cols] = (attrs.get('gridsize') ?? '1 1').trim().split(/\s+/).map(Number);
  return placeholderPng(Number.isInteger(cols) && cols > 0 ? cols : 1, Number.isInteger(rows) && rows > 0 ? rows : 1);
}
