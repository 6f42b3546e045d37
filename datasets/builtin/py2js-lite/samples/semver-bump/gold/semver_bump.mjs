// Every way to raise a version: a JavaScript port of semver_bump.py.
import { SemverError, Version } from "./semver.mjs";

const NAMES = ["version", "token", "loose", "part"];
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

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const loose = opts.get("loose") ?? "no";
  if (loose !== "yes" && loose !== "no") return print("error: --loose must be yes or no");
  let version;
  try {
    version = Version.parse(opts.get("version") ?? "", loose === "yes");
  } catch (err) {
    if (!(err instanceof SemverError)) throw err;
    return print(`error: ${err.message}`);
  }
  print(`version: ${version}`);
  if (opts.has("part")) {
    try {
      print(`next ${opts.get("part")}: ${version.nextVersion(opts.get("part"), opts.get("token") ?? "rc")}`);
    } catch (err) {
      if (!(err instanceof SemverError)) throw err;
      print(`error: ${err.message}`);
    }
    return;
  }
  const tokenPre = opts.get("token") ?? "rc";
  const tokenBuild = opts.get("token") ?? "build";
  print(`bump_major: ${version.bumpMajor()}`);
  print(`bump_minor: ${version.bumpMinor()}`);
  print(`bump_patch: ${version.bumpPatch()}`);
  print(`bump_prerelease: ${version.bumpPrerelease(tokenPre)}`);
  print(`bump_build: ${version.bumpBuild(tokenBuild)}`);
  print(`finalize_version: ${version.finalizeVersion()}`);
  for (const part of ["major", "minor", "patch", "prerelease"]) {
    print(`next ${part}: ${version.nextVersion(part, tokenPre)}`);
  }
}

main();
process.stdout.write(out.join(""));
