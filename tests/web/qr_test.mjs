// Tests of the page's hand-written QR encoder (web-ui/js/qr.js) against
// Debian's qrencode, an independent implementation: for each text and
// level, qrencode's symbol is read (its version and mask from its own
// format bits), ours is made with the same mask, and the two must agree
// module for module. Our own mask choice is then checked to decode: the
// symbol is written as a PNG and read back by zbarimg.
//   node tests/web/qr_test.mjs         exit 0 pass, 1 fail, 77 tools missing
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { encodeQr } from '../../web-ui/js/qr.js';

const kSkip = 77;
for (const tool of ['qrencode', 'zbarimg']) {
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
    console.log(`SKIP: ${tool} is missing (Debian packages qrencode, zbar-tools)`);
    process.exit(kSkip);
  }
}

// Texts of every length class up to version 10 at level M (213 bytes),
// and non-ASCII (UTF-8 bytes).
const texts = [
  'a',
  'hi',
  'http://127.0.0.1:8080/player.html#x',
  'http://192.168.1.20:8080/player.html#3kPq9vYx2LmNbTz7QwErT5yUiOpAsDfG',
  `http://vivaref.local:8080/player.html#${'Z'.repeat(64)}`,
  'Odessa la Contessa è più già — ♛',
];
for (let n = 15; n <= 213; n += 17) texts.push(`http://castle/${'k'.repeat(n - 14)}`);

// Reads qrencode's symbol: ASCII art, "##" per dark module, no margin.
function qrencodeSymbol(text, level) {
  const out = execFileSync('qrencode', ['-l', level, '-8', '-m', '0', '-t', 'ASCII', '-o', '-', text], { encoding: 'utf8' });
  const rows = out.split('\n').filter((l) => l.length);
  return rows.map((row) => {
    const cells = [];
    for (let i = 0; i < row.length; i += 2) cells.push(row[i] === '#');
    return cells;
  });
}

// The mask of a symbol, from its first copy of the format bits.
function maskOf(modules) {
  let bits = 0;
  const at = (x, y) => (modules[y][x] ? 1 : 0);
  const read = [];
  for (let i = 0; i <= 5; ++i) read.push(at(8, i));
  read.push(at(8, 7), at(8, 8), at(7, 8));
  for (let i = 9; i < 15; ++i) read.push(at(14 - i, 8));
  read.forEach((b, i) => {
    bits |= b << i;
  });
  bits ^= 0x5412;
  return (bits >> 10) & 7;
}

// A grey PNG of the symbol (quiet zone 4, `scale` pixels a module): enough
// of the format for zbarimg, written here to keep the test free of a PNG library.
function pngOf(modules, scale = 4) {
  const n = modules.length + 8;
  const side = n * scale;
  const raw = Buffer.alloc((side + 1) * side, 255);
  for (let y = 0; y < side; ++y) {
    raw[y * (side + 1)] = 0; // filter: none
    for (let x = 0; x < side; ++x) {
      const mx = Math.floor(x / scale) - 4;
      const my = Math.floor(y / scale) - 4;
      if (mx >= 0 && my >= 0 && mx < modules.length && my < modules.length && modules[my][mx]) raw[y * (side + 1) + 1 + x] = 0;
    }
  }
  const crcTable = Array.from({ length: 256 }, (_, k) => {
    let c = k;
    for (let i = 0; i < 8; ++i) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const dir = mkdtempSync(join(tmpdir(), 'vivaref-qr-'));
let passed = 0;
let failed = 0;
const fail = (what) => {
  ++failed;
  console.log(`FAIL ${what}`);
};
try {
  for (const level of ['L', 'M']) {
    for (const text of texts) {
      const label = `level ${level}, ${Buffer.byteLength(text)} bytes "${text.slice(0, 40)}"`;
      const theirs = qrencodeSymbol(text, level);
      const version = (theirs.length - 17) / 4;
      if (version > 10) continue; // beyond what the page needs
      const ours = encodeQr(text, { level, mask: maskOf(theirs) });
      if (ours.version !== version) {
        fail(`${label}: version ${ours.version}, qrencode ${version}`);
        continue;
      }
      const diff = [];
      for (let y = 0; y < ours.size; ++y)
        for (let x = 0; x < ours.size; ++x) if (ours.modules[y][x] !== theirs[y][x]) diff.push(`(${x},${y})`);
      if (diff.length) fail(`${label}: ${diff.length} modules differ from qrencode's, first ${diff.slice(0, 5).join(' ')}`);
      else ++passed;

      // Our own mask choice, decoded by zbar.
      const auto = encodeQr(text, { level });
      const file = join(dir, 'qr.png');
      writeFileSync(file, pngOf(auto.modules));
      const read = spawnSync('zbarimg', ['--quiet', '--raw', '-Sbinary', file]);
      const decoded = read.stdout ? read.stdout.toString('utf8').replace(/\n$/, '') : '';
      if (read.status !== 0 || decoded !== text) fail(`${label}: zbarimg read ${JSON.stringify(decoded)} (mask ${auto.mask}, exit ${read.status})`);
      else ++passed;
    }
  }
  // Too long for version 10: a clear error, not a broken symbol.
  try {
    encodeQr('x'.repeat(300), { level: 'M' });
    fail('300 bytes: no error');
  } catch (e) {
    if (/version 10/.test(e.message)) ++passed;
    else fail(`300 bytes: ${e.message}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`qr: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
