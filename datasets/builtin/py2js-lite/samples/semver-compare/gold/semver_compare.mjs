// Compare two semantic versions: a JavaScript port of semver_compare.py.
import { SemverError, Version } from "./semver.mjs";

const NAMES = ["a", "b", "match"];
const out = [];
const print = (line) => out.push(`${line}\n`);

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

function parse(label, text) {
  try {
    return Version.parse(text);
  } catch (err) {
    if (!(err instanceof SemverError)) throw err;
    print(`error: ${label}: ${err.message}`);
    return null;
  }
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!opts.has("a")) return print("error: --a is required");
  const a = parse("a", opts.get("a"));
  if (a === null) return;
  print(`a: ${a}`);
  print(`a parts: ${a.major} ${a.minor} ${a.patch} ${a.prerelease || "-"} ${a.build || "-"}`);
  if (opts.has("b")) {
    const b = parse("b", opts.get("b"));
    if (b === null) return;
    print(`b: ${b}`);
    const result = a.compare(b);
    print(`compare: ${result}`);
    print(`relation: a ${result < 0 ? "<" : result > 0 ? ">" : "=="} b`);
    print(`compatible: ${a.isCompatible(b) ? "yes" : "no"}`);
  }
  if (opts.has("match")) {
    try {
      print(`match: ${a.match(opts.get("match")) ? "yes" : "no"}`);
    } catch (err) {
      if (!(err instanceof SemverError)) throw err;
      print(`match: error: ${err.message}`);
    }
  }
}

main();
process.stdout.write(out.join(""));
