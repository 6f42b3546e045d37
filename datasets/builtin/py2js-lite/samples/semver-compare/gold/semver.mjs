// A port of python-semver 3.0.2's Version with Python `re` semantics: `\d` is any Unicode decimal digit
// (converted with its value) and `$` also matches before one final "\n".

const D = "\\p{Nd}";
const NUM = `(?:0|[1-9]${D}*)`;
const PRE_ID = `(?:0|[1-9]${D}*|${D}*[a-zA-Z-][0-9a-zA-Z-]*)`;
const TAIL = `(?:-(?<prerelease>${PRE_ID}(?:\\.${PRE_ID})*))?(?:\\+(?<build>[0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?(?=\\n?$)`;
const STRICT = new RegExp(`^(?<major>${NUM})\\.(?<minor>${NUM})\\.(?<patch>${NUM})${TAIL}`, "u");
const LOOSE = new RegExp(`^(?<major>${NUM})(?:\\.(?<minor>${NUM})(?:\\.(?<patch>${NUM}))?)?${TAIL}`, "u");

export class SemverError extends Error {}

function digitValue(ch) {
  let cp = ch.codePointAt(0);
  let offset = 0;
  while (/\p{Nd}/u.test(String.fromCodePoint(cp - 1)) && offset < 64) {
    cp -= 1;
    offset += 1;
  }
  return offset % 10;
}

export function pyDigits(text) {
  let value = 0n;
  for (const ch of text) value = value * 10n + BigInt(digitValue(ch));
  return value;
}

const cmp = (a, b) => (a > b ? 1 : a < b ? -1 : 0);

function natCmp(a, b) {
  a = a || "";
  b = b || "";
  const parts = (s) => s.split(".").map((x) => (/^\p{Nd}+$/u.test(x) ? pyDigits(x) : x));
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.min(pa.length, pb.length); i += 1) {
    const x = pa[i];
    const y = pb[i];
    let r;
    if (typeof x === "bigint" && typeof y === "bigint") r = cmp(x, y);
    else if (typeof x === "bigint") r = -1;
    else if (typeof y === "bigint") r = 1;
    else r = cmp(x, y);
    if (r !== 0) return r;
  }
  return cmp(a.length, b.length);
}

function incrementString(string) {
  // The last run of digits, as an integer plus one, written back right-aligned over the run.
  const runs = [...string.matchAll(/\p{Nd}+/gu)];
  if (!runs.length) return string;
  const last = runs[runs.length - 1];
  const chars = Array.from(string);
  const start = Array.from(string.slice(0, last.index)).length;
  const end = start + Array.from(last[0]).length;
  const next = String(pyDigits(last[0]) + 1n);
  return chars.slice(0, Math.max(end - next.length, start)).join("") + next + chars.slice(end).join("");
}

export class Version {
  constructor(major, minor = 0n, patch = 0n, prerelease = null, build = null) {
    this.major = major;
    this.minor = minor;
    this.patch = patch;
    this.prerelease = prerelease;
    this.build = build;
  }

  static parse(text, optionalMinorAndPatch = false) {
    const m = (optionalMinorAndPatch ? LOOSE : STRICT).exec(text);
    if (!m) throw new SemverError(`${text} is not valid SemVer string`);
    const g = m.groups;
    return new Version(
      pyDigits(g.major),
      g.minor ? pyDigits(g.minor) : 0n,
      g.patch ? pyDigits(g.patch) : 0n,
      g.prerelease ?? null,
      g.build ?? null,
    );
  }

  toString() {
    let s = `${this.major}.${this.minor}.${this.patch}`;
    if (this.prerelease) s += `-${this.prerelease}`;
    if (this.build) s += `+${this.build}`;
    return s;
  }

  compare(other) {
    if (typeof other === "string") other = Version.parse(other);
    const x = cmp(this.major, other.major) || cmp(this.minor, other.minor) || cmp(this.patch, other.patch);
    if (x) return x;
    const rc1 = this.prerelease;
    const rc2 = other.prerelease;
    const r = natCmp(rc1, rc2);
    if (!r) return 0;
    if (!rc1) return 1;
    if (!rc2) return -1;
    return r;
  }

  match(expr) {
    let prefix = expr.slice(0, 2);
    let version;
    if ([">=", "<=", "==", "!="].includes(prefix)) {
      version = expr.slice(2);
    } else if (prefix && (prefix[0] === ">" || prefix[0] === "<")) {
      prefix = prefix[0];
      version = expr.slice(1);
    } else if (expr && "0123456789".includes(expr[0])) {
      prefix = "==";
      version = expr;
    } else {
      throw new SemverError(
        "match_expr parameter should be in format <op><ver>, where <op> is one of " +
          `['<', '>', '==', '<=', '>=', '!=']. You provided: ${pyRepr(expr)}`,
      );
    }
    const allowed = { ">": [1], "<": [-1], "==": [0], "!=": [-1, 1], ">=": [0, 1], "<=": [-1, 0] }[prefix];
    return allowed.includes(this.compare(version));
  }

  isCompatible(other) {
    const head = (v) => [v.major, v.minor, v.patch, v.prerelease].filter((p) => p !== null).join("\u0000");
    if (this.major === 0n && other.major === 0n && head(this) !== head(other)) return false;
    return this.major === other.major && other.minor >= this.minor && this.prerelease === other.prerelease;
  }

  bumpMajor() {
    return new Version(this.major + 1n);
  }

  bumpMinor() {
    return new Version(this.major, this.minor + 1n);
  }

  bumpPatch() {
    return new Version(this.major, this.minor, this.patch + 1n);
  }

  bumpPrerelease(token = "rc") {
    const base = this.prerelease ?? (token === "" ? "0" : token === null ? "rc.0" : `${token}.0`);
    return new Version(this.major, this.minor, this.patch, incrementString(base));
  }

  bumpBuild(token = "build") {
    const base = this.build ?? (token === "" ? "0" : token === null ? "build.0" : `${token}.0`);
    return new Version(this.major, this.minor, this.patch, this.prerelease, incrementString(base));
  }

  finalizeVersion() {
    return new Version(this.major, this.minor, this.patch);
  }

  nextVersion(part, prereleaseToken = "rc") {
    if (!["major", "minor", "patch", "prerelease"].includes(part)) {
      throw new SemverError(
        `Invalid part. Expected one of ('major', 'minor', 'patch', 'prerelease'), but got ${pyRepr(part)}`,
      );
    }
    let version = this;
    if (
      (version.prerelease || version.build) &&
      (part === "patch" ||
        (part === "minor" && version.patch === 0n) ||
        (part === "major" && version.minor === 0n && version.patch === 0n))
    ) {
      return new Version(version.major, version.minor, version.patch);
    }
    if (part === "major") return version.bumpMajor();
    if (part === "minor") return version.bumpMinor();
    if (part === "patch") return version.bumpPatch();
    if (!version.prerelease) version = version.bumpPatch();
    return version.bumpPrerelease(prereleaseToken);
  }
}

export function pyRepr(text) {
  // Python repr() of a str.
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, "0")}`;
    else if (!isPrintable(ch)) {
      const hex = cp.toString(16);
      out += cp < 0x100 ? `\\x${hex.padStart(2, "0")}` : cp < 0x10000 ? `\\u${hex.padStart(4, "0")}` : `\\U${hex.padStart(8, "0")}`;
    } else out += ch;
  }
  return out + quote;
}

function isPrintable(ch) {
  // Python str.isprintable(): not Cc, Cf, Cs, Co, Cn, Zl, Zp, or Zs other than the ASCII space.
  if (ch === " ") return true;
  return !/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u.test(ch);
}
