// PKCS#7 padding tool: a JavaScript port of pyaes-g01 (pyaes.util padding helpers).
import { readFileSync } from "node:fs";

function parseArgs(argv) {
  const out = { op: "pad", hex: null, text: null };
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, "");
    out[name] = argv[i + 1];
  }
  return out;
}

const HEXDIGIT = /^[0-9a-fA-F]$/;
const SPACE = new Set([" ", "\t", "\n", "\r", "\x0b", "\x0c"]);

// Python bytes.fromhex: whitespace allowed between byte pairs only.
function fromHex(s) {
  const out = [];
  let i = 0;
  while (i < s.length) {
    if (SPACE.has(s[i])) { i++; continue; }
    if (i + 1 >= s.length || !HEXDIGIT.test(s[i]) || !HEXDIGIT.test(s[i + 1])) return null;
    out.push(parseInt(s.slice(i, i + 2), 16));
    i += 2;
  }
  return Buffer.from(out);
}

function appendPKCS7(data) {
  const pad = 16 - (data.length % 16);
  return Buffer.concat([data, Buffer.alloc(pad, pad)]);
}

class PyError extends Error {
  constructor(type, message) { super(message); this.type = type; }
}

function stripPKCS7(data) {
  if (data.length % 16 !== 0) throw new PyError("ValueError", "invalid length");
  if (data.length === 0) throw new PyError("IndexError", "index out of range");
  const pad = data[data.length - 1];
  if (pad > 16) throw new PyError("ValueError", "invalid padding byte");
  if (pad === 0) return Buffer.alloc(0);
  return data.subarray(0, Math.max(0, data.length - pad));
}

const lines = [];
const print = (s) => lines.push(s);

function showBlocks(label, data) {
  print(`${label}: ${data.length} bytes`);
  for (let start = 0; start < data.length; start += 16) {
    print(`  ${String(start / 16).padStart(3)}: ${data.subarray(start, start + 16).toString("hex")}`);
  }
}

function showText(data) {
  try {
    const t = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(data);
    print(`text: ${t}`);
  } catch {
    print("text: (not valid UTF-8)");
  }
}

function readStdin() {
  try { return readFileSync(0); } catch { return Buffer.alloc(0); }
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  let data;
  if (args.hex !== null && args.hex !== undefined) {
    data = fromHex(args.hex);
    if (data === null) { print("error: bad hex input"); return; }
  } else if (args.text !== null && args.text !== undefined) {
    data = Buffer.from(args.text, "utf-8");
  } else {
    data = readStdin();
  }
  showBlocks("input", data);
  try {
    if (args.op === "pad") {
      const padded = appendPKCS7(data);
      print(`pad length: ${padded.length - data.length}`);
      showBlocks("padded", padded);
    } else if (args.op === "unpad") {
      const stripped = stripPKCS7(data);
      print(`removed: ${data.length - stripped.length}`);
      showBlocks("stripped", stripped);
      showText(stripped);
    } else if (args.op === "roundtrip") {
      const padded = appendPKCS7(data);
      const back = stripPKCS7(padded);
      print(`padded length: ${padded.length}`);
      print(`last byte: ${padded[padded.length - 1].toString(16).padStart(2, "0")}`);
      print(`roundtrip ok: ${Buffer.compare(back, data) === 0 ? "True" : "False"}`);
    } else {
      print(`error: unknown op: ${args.op}`);
    }
  } catch (exc) {
    if (!(exc instanceof PyError)) throw exc;
    print(`error: ${exc.type}: ${exc.message}`);
  }
}

main();
process.stdout.write(lines.map((l) => l + "\n").join(""));
