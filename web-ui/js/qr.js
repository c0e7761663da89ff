// A small QR Code encoder (ISO/IEC 18004), written by hand for this page:
// the pages are served as they are by the daemon, with no build step and
// no runtime dependency from Debian or npm, and a player's secret link must
// never be sent to an outside QR service. It does what a URL needs and no
// more: byte mode (UTF-8), error correction L or M, versions 1 to 10 (up
// to 213 bytes at M), the mask chosen by the standard's penalty score.
// tests/web/qr_test.mjs checks it module for module against Debian's
// qrencode and decodes what it draws with zbarimg.

// Per version 1..10: [total codewords, L: [ec per block, [[blocks, data per block], ...]], M: ...].
const kVersions = [
  null,
  [26, [7, [[1, 19]]], [10, [[1, 16]]]],
  [44, [10, [[1, 34]]], [16, [[1, 28]]]],
  [70, [15, [[1, 55]]], [26, [[1, 44]]]],
  [100, [20, [[1, 80]]], [18, [[2, 32]]]],
  [134, [26, [[1, 108]]], [24, [[2, 43]]]],
  [172, [18, [[2, 68]]], [16, [[4, 27]]]],
  [196, [20, [[2, 78]]], [18, [[4, 31]]]],
  [242, [24, [[2, 97]]], [22, [[2, 38], [2, 39]]]],
  [292, [30, [[2, 116]]], [22, [[3, 36], [2, 37]]]],
  [346, [18, [[2, 68], [2, 69]]], [26, [[4, 43], [1, 44]]]],
];
const kAlignment = [null, [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];
const kLevelBits = { L: 1, M: 0 };
export const kMaxVersion = 10;

// --- Reed-Solomon over GF(256), polynomial x^8+x^4+x^3+x^2+1 -----------------
const kExp = new Uint8Array(512);
const kLog = new Uint8Array(256);
{
  let x = 1;
  for (let i = 0; i < 255; ++i) {
    kExp[i] = x;
    kLog[x] = i;
    x <<= 1;
    if (x & 0x100) x ^= 0x11d;
  }
  for (let i = 255; i < 512; ++i) kExp[i] = kExp[i - 255];
}
function gfMul(a, b) {
  return a && b ? kExp[kLog[a] + kLog[b]] : 0;
}
// The generator polynomial of degree n, highest power first (leading 1 dropped).
function generator(n) {
  let poly = [1];
  for (let i = 0; i < n; ++i) {
    const next = new Array(poly.length + 1).fill(0);
    for (let j = 0; j < poly.length; ++j) {
      next[j] ^= poly[j];
      next[j + 1] ^= gfMul(poly[j], kExp[i]);
    }
    poly = next;
  }
  return poly.slice(1);
}
export function reedSolomon(data, n) {
  const gen = generator(n);
  const rem = new Array(n).fill(0);
  for (const byte of data) {
    const factor = byte ^ rem.shift();
    rem.push(0);
    for (let i = 0; i < n; ++i) rem[i] ^= gfMul(gen[i], factor);
  }
  return rem;
}

// --- data codewords ------------------------------------------------------------
function dataCapacity(version, level) {
  const [, groups] = kVersions[version][level === 'L' ? 1 : 2];
  return groups.reduce((sum, [blocks, per]) => sum + blocks * per, 0);
}

export function utf8Bytes(text) {
  return Array.from(new TextEncoder().encode(text));
}

function dataCodewords(bytes, version, level) {
  const bits = [];
  const put = (value, length) => {
    for (let i = length - 1; i >= 0; --i) bits.push((value >>> i) & 1);
  };
  put(0b0100, 4); // byte mode
  put(bytes.length, version <= 9 ? 8 : 16);
  for (const b of bytes) put(b, 8);
  const capacity = dataCapacity(version, level) * 8;
  put(0, Math.min(4, capacity - bits.length)); // terminator
  while (bits.length % 8) bits.push(0);
  const out = [];
  for (let i = 0; i < bits.length; i += 8) out.push(bits.slice(i, i + 8).reduce((v, b) => (v << 1) | b, 0));
  for (let pad = 0; out.length < capacity / 8; pad ^= 1) out.push(pad ? 0x11 : 0xec);
  return out;
}

// Blocks with their error correction, interleaved as the symbol holds them.
function finalCodewords(data, version, level) {
  const [ecPer, groups] = kVersions[version][level === 'L' ? 1 : 2];
  const blocks = [];
  let at = 0;
  for (const [count, per] of groups) {
    for (let b = 0; b < count; ++b) {
      const d = data.slice(at, at + per);
      at += per;
      blocks.push({ d, e: reedSolomon(d, ecPer) });
    }
  }
  const out = [];
  const longest = Math.max(...blocks.map((b) => b.d.length));
  for (let i = 0; i < longest; ++i) for (const b of blocks) if (i < b.d.length) out.push(b.d[i]);
  for (let i = 0; i < ecPer; ++i) for (const b of blocks) out.push(b.e[i]);
  return out;
}

// --- the symbol ----------------------------------------------------------------
class Symbol {
  constructor(version) {
    this.version = version;
    this.size = 17 + 4 * version;
    this.dark = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
    this.fixed = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
  }
  set(x, y, dark) {
    this.dark[y][x] = dark;
    this.fixed[y][x] = true;
  }
  drawFunctionPatterns() {
    const n = this.size;
    for (let i = 0; i < n; ++i) {
      this.set(6, i, i % 2 === 0);
      this.set(i, 6, i % 2 === 0);
    }
    for (const [cx, cy] of [[3, 3], [n - 4, 3], [3, n - 4]]) {
      for (let dy = -4; dy <= 4; ++dy) {
        for (let dx = -4; dx <= 4; ++dx) {
          const x = cx + dx;
          const y = cy + dy;
          if (x < 0 || y < 0 || x >= n || y >= n) continue;
          const d = Math.max(Math.abs(dx), Math.abs(dy));
          this.set(x, y, d !== 2 && d !== 4);
        }
      }
    }
    const centres = kAlignment[this.version];
    for (const cy of centres) {
      for (const cx of centres) {
        const nearFinder = (cx === 6 && cy === 6) || (cx === 6 && cy === n - 7) || (cx === n - 7 && cy === 6);
        if (nearFinder) continue;
        for (let dy = -2; dy <= 2; ++dy)
          for (let dx = -2; dx <= 2; ++dx) this.set(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
      }
    }
    this.drawFormat(0, 0); // reserves the format areas; drawn for real after masking
    this.drawVersion();
  }
  drawFormat(levelBits, mask) {
    const data = (levelBits << 3) | mask;
    let rem = data;
    for (let i = 0; i < 10; ++i) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
    const bits = ((data << 10) | rem) ^ 0x5412;
    const bit = (i) => ((bits >>> i) & 1) === 1;
    const n = this.size;
    for (let i = 0; i <= 5; ++i) this.set(8, i, bit(i));
    this.set(8, 7, bit(6));
    this.set(8, 8, bit(7));
    this.set(7, 8, bit(8));
    for (let i = 9; i < 15; ++i) this.set(14 - i, 8, bit(i));
    for (let i = 0; i < 8; ++i) this.set(n - 1 - i, 8, bit(i));
    for (let i = 8; i < 15; ++i) this.set(8, n - 15 + i, bit(i));
    this.set(8, n - 8, true); // the dark module
  }
  drawVersion() {
    if (this.version < 7) return;
    let rem = this.version;
    for (let i = 0; i < 12; ++i) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
    const bits = (this.version << 12) | rem;
    for (let i = 0; i < 18; ++i) {
      const dark = ((bits >>> i) & 1) === 1;
      const a = this.size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      this.set(a, b, dark);
      this.set(b, a, dark);
    }
  }
  // Codewords bit by bit, in two-column zigzags from the bottom right.
  placeData(codewords) {
    const n = this.size;
    let i = 0;
    const total = codewords.length * 8;
    for (let right = n - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      for (let k = 0; k < n; ++k) {
        for (let j = 0; j < 2; ++j) {
          const x = right - j;
          const upward = ((right + 1) & 2) === 0;
          const y = upward ? n - 1 - k : k;
          if (this.fixed[y][x]) continue;
          if (i < total) this.dark[y][x] = ((codewords[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
          ++i; // remainder bits stay light
        }
      }
    }
  }
  applyMask(mask) {
    const test = [
      (x, y) => (x + y) % 2 === 0,
      (x, y) => y % 2 === 0,
      (x) => x % 3 === 0,
      (x, y) => (x + y) % 3 === 0,
      (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
      (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
      (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
      (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
    ][mask];
    for (let y = 0; y < this.size; ++y)
      for (let x = 0; x < this.size; ++x) if (!this.fixed[y][x] && test(x, y)) this.dark[y][x] = !this.dark[y][x];
  }
  // The standard's four penalty rules; the lowest total wins.
  penalty() {
    const n = this.size;
    const m = this.dark;
    let score = 0;
    const lines = [];
    for (let y = 0; y < n; ++y) lines.push(m[y]);
    for (let x = 0; x < n; ++x) lines.push(m.map((row) => row[x]));
    const finderLike = [true, false, true, true, true, false, true];
    for (const line of lines) {
      // N1: five or more in a row.
      let run = 1;
      for (let i = 1; i <= n; ++i) {
        if (i < n && line[i] === line[i - 1]) {
          ++run;
        } else {
          if (run >= 5) score += 3 + (run - 5);
          run = 1;
        }
      }
      // N3: 1:1:3:1:1 with four light modules on one side (outside counts as light).
      const at = (i) => (i >= 0 && i < n ? line[i] : false);
      for (let i = -4; i < n; ++i) {
        let core = true;
        for (let k = 0; k < 7 && core; ++k) core = at(i + k) === finderLike[k];
        if (!core) continue;
        const lightBefore = [1, 2, 3, 4].every((k) => !at(i - k));
        const lightAfter = [7, 8, 9, 10].every((k) => !at(i + k));
        if (lightBefore) score += 40;
        if (lightAfter) score += 40;
      }
    }
    // N2: 2x2 blocks of one colour.
    for (let y = 0; y < n - 1; ++y)
      for (let x = 0; x < n - 1; ++x) {
        const c = m[y][x];
        if (c === m[y][x + 1] && c === m[y + 1][x] && c === m[y + 1][x + 1]) score += 3;
      }
    // N4: balance of dark and light.
    let dark = 0;
    for (const row of m) for (const c of row) if (c) ++dark;
    const percent = (dark * 100) / (n * n);
    score += Math.floor(Math.abs(percent - 50) / 5) * 10;
    return score;
  }
}

// The QR symbol of `text`: {version, level, mask, size, modules} where
// modules[y][x] is true for a dark module. `mask` forces a mask (tests).
// Throws when the text is too long for version 10.
export function encodeQr(text, { level = 'M', mask = null, minVersion = 1 } = {}) {
  if (!(level in kLevelBits)) throw new Error(`QR: error correction level ${level} is not supported (L, M)`);
  const bytes = utf8Bytes(text);
  let version = minVersion;
  const needed = (v) => 4 + (v <= 9 ? 8 : 16) + 8 * bytes.length;
  while (version <= kMaxVersion && needed(version) > dataCapacity(version, level) * 8) ++version;
  if (version > kMaxVersion) throw new Error(`QR: ${bytes.length} bytes do not fit version ${kMaxVersion} at level ${level}`);
  const codewords = finalCodewords(dataCodewords(bytes, version, level), version, level);
  const build = (maskNumber) => {
    const s = new Symbol(version);
    s.drawFunctionPatterns();
    s.placeData(codewords);
    s.applyMask(maskNumber);
    s.drawFormat(kLevelBits[level], maskNumber);
    return s;
  };
  let best = null;
  let bestMask = 0;
  for (let k = 0; k < 8; ++k) {
    if (mask !== null && k !== mask) continue;
    const s = build(k);
    const p = mask !== null ? 0 : s.penalty();
    if (!best || p < best.p) {
      best = { s, p };
      bestMask = k;
    }
  }
  return { version, level, mask: bestMask, size: best.s.size, modules: best.s.dark };
}

// Draws a symbol on a canvas with a quiet zone of 4 modules.
export function drawQr(canvas, qr, scale = 6) {
  const quiet = 4;
  const side = (qr.size + 2 * quiet) * scale;
  canvas.width = side;
  canvas.height = side;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, side, side);
  ctx.fillStyle = '#000';
  for (let y = 0; y < qr.size; ++y)
    for (let x = 0; x < qr.size; ++x) if (qr.modules[y][x]) ctx.fillRect((x + quiet) * scale, (y + quiet) * scale, scale, scale);
}
