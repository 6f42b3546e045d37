// Derive a key from a passphrase with PBKDF2 and print the salt and the derived key in hex.
// Port of pbkdf2-g01 (pbkdf2 1.3) using node:crypto.
import { pbkdf2Sync } from "node:crypto";

const PROG = "pbkdf2_g01.mjs";
const DIGESTS = ["md5", "sha1", "sha256", "sha512"];
const NAMES = ["passphrase", "salt", "salt-hex", "iterations", "length", "digest"];

function usage(message) {
  process.stderr.write(
    `usage: ${PROG} [-h] --passphrase PASSPHRASE [--salt SALT] [--salt-hex SALT_HEX] ` +
      "[--iterations ITERATIONS] [--length LENGTH] [--digest {md5,sha1,sha256,sha512}]\n" +
      `${PROG}: error: ${message}\n`,
  );
  process.exit(2);
}

// Python int() on a command-line string (decimal, optional sign, underscores between digits, whitespace).
function pyInt(text, name) {
  const t = text.trim();
  if (!/^[+-]?\d+(_\d+)*$/.test(t)) usage(`argument --${name}: invalid int value: '${text}'`);
  return BigInt(t.replace(/_/g, ""));
}

function parseArgs(argv) {
  const opts = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    let name;
    let value;
    if (arg.startsWith("--") && arg.includes("=")) {
      name = arg.slice(2, arg.indexOf("="));
      value = arg.slice(arg.indexOf("=") + 1);
    } else if (arg.startsWith("--")) {
      name = arg.slice(2);
      if (!NAMES.includes(name)) usage(`unrecognized arguments: ${arg}`);
      if (i + 1 >= argv.length) usage(`argument --${name}: expected one argument`);
      value = argv[++i];
    } else {
      usage(`unrecognized arguments: ${arg}`);
    }
    if (!NAMES.includes(name)) usage(`unrecognized arguments: ${arg}`);
    opts[name] = value;
  }
  if (opts.passphrase === undefined) usage("the following arguments are required: --passphrase");
  const digest = opts.digest ?? "sha1";
  if (!DIGESTS.includes(digest)) {
    usage(`argument --digest: invalid choice: '${digest}' (choose from 'md5', 'sha1', 'sha256', 'sha512')`);
  }
  return {
    passphrase: opts.passphrase,
    salt: opts.salt ?? "",
    saltHex: opts["salt-hex"],
    iterations: opts.iterations === undefined ? 1000n : pyInt(opts.iterations, "iterations"),
    length: opts.length === undefined ? 32n : pyInt(opts.length, "length"),
    digest,
  };
}

// Python bytes.fromhex: pairs of hex digits, ASCII whitespace allowed between pairs.
function fromHex(text) {
  const out = [];
  const ws = " \t\n\r\v\f";
  let i = 0;
  while (i < text.length) {
    if (ws.includes(text[i])) {
      i++;
      continue;
    }
    const pair = text.slice(i, i + 2);
    if (!/^[0-9a-fA-F]{2}$/.test(pair)) return null;
    out.push(parseInt(pair, 16));
    i += 2;
  }
  return Buffer.from(out);
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const lines = [];
  const finish = () => process.stdout.write(lines.length ? lines.join("\n") + "\n" : "");
  let salt;
  if (args.saltHex !== undefined) {
    salt = fromHex(args.saltHex);
    if (salt === null) {
      lines.push("error: invalid --salt-hex");
      return finish();
    }
  } else {
    salt = Buffer.from(args.salt, "utf8");
  }
  if (args.length > 4096n) {
    lines.push("error: --length is limited to 4096 bytes");
    return finish();
  }
  lines.push(`salt: ${salt.toString("hex") || "(empty)"}`);
  if (args.iterations < 1n) {
    lines.push("error: ValueError: iterations must be at least 1");
    return finish();
  }
  lines.push(`digest: ${args.digest}, iterations: ${args.iterations}`);
  const length = Number(args.length);
  let key = "";
  if (length > 0) {
    key = pbkdf2Sync(Buffer.from(args.passphrase, "utf8"), salt, Number(args.iterations), length, args.digest)
      .toString("hex");
  }
  lines.push(`key: ${key}`);
  return finish();
}

main();
