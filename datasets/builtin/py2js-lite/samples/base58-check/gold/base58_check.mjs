// Base58Check encode/verify and raw decode: a JavaScript port of base58_check.py.
import { ALPHABETS, Base58Error, b58decode, b58decodeCheck, b58decodeInt, b58encodeCheck } from "./base58.mjs";
import { pyStrip } from "./pyint.mjs";

const NAMES = ["mode", "hex", "text", "alphabet", "autofix"];
const out = [];
const print = (line) => out.push(`${line}\n`);
const hex = (bytes) => Buffer.from(bytes).toString("hex");

function usage(message) {
  process.stderr.write(`usage error: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  if (argv.length % 2) usage("expected --name value pairs");
  const opts = new Map();
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i];
    if (!key.startsWith("--") || !NAMES.includes(key.slice(2))) usage(`unknown argument ${key}`);
    opts.set(key.slice(2), argv[i + 1]);
  }
  return opts;
}

function fromHex(text) {
  // Python bytes.fromhex: ASCII whitespace skipped between bytes; errors name a code point position.
  const chars = Array.from(text);
  const fail = (at) => {
    throw new Base58Error(`non-hexadecimal number found in fromhex() arg at position ${at}`);
  };
  const nonAscii = chars.findIndex((ch) => ch.codePointAt(0) > 0x7f);
  if (nonAscii >= 0) fail(nonAscii);
  const isHex = (ch) => ch !== undefined && /^[0-9a-fA-F]$/.test(ch);
  const bytes = [];
  let i = 0;
  while (i < chars.length) {
    if (" \t\n\v\f\r".includes(chars[i])) {
      while (i < chars.length && " \t\n\v\f\r".includes(chars[i])) i += 1;
      if (i >= chars.length) break;
    }
    if (!isHex(chars[i])) fail(i);
    if (!isHex(chars[i + 1])) fail(i + 1);
    bytes.push(Number.parseInt(chars[i] + chars[i + 1], 16));
    i += 2;
  }
  return Uint8Array.from(bytes);
}

function encode(opts, alphabet) {
  const payload = fromHex(opts.get("hex") ?? "");
  print(`payload: ${payload.length} bytes`);
  print(`base58check: ${b58encodeCheck(payload, alphabet)}`);
}

function decode(opts, alphabet, autofix) {
  const payload = b58decodeCheck(opts.get("text") ?? "", alphabet, autofix);
  print(`payload: ${hex(payload)}`);
  if (payload.length) print(`version: ${payload[0]}`);
}

function raw(opts, alphabet, autofix) {
  const text = opts.get("text") ?? "";
  const data = b58decode(text, alphabet, autofix);
  const number = b58decodeInt(pyLstrip(text), alphabet, autofix);
  print(`hex: ${hex(data)}`);
  print(`int: ${number}`);
}

function pyLstrip(text) {
  const stripped = pyStrip(text);
  if (!stripped) return "";
  return text.slice(text.indexOf(stripped));
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const name = opts.get("alphabet") ?? "bitcoin";
  if (!Object.hasOwn(ALPHABETS, name)) return print("error: --alphabet must be bitcoin or ripple");
  const autofix = opts.get("autofix") ?? "no";
  if (autofix !== "yes" && autofix !== "no") return print("error: --autofix must be yes or no");
  const modes = { encode, decode, raw };
  const mode = opts.get("mode") ?? "encode";
  if (!Object.hasOwn(modes, mode)) return print("error: --mode must be encode, decode or raw");
  try {
    modes[mode](opts, ALPHABETS[name], autofix === "yes");
  } catch (err) {
    if (!(err instanceof Base58Error)) throw err;
    print(`error: ${err.message}`);
  }
}

main();
process.stdout.write(out.join(""));
