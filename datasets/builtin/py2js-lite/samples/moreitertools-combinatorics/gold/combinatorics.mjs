// Ports of more-itertools 10.5.0's combinatoric generators over str items, eager, in the same order.
import { strCmp, tuple } from "./pyrepr.mjs";
import { PyValueError } from "./pyvalueerror.mjs";

const lt = (a, b) => strCmp(a, b) < 0;
const gt = (a, b) => strCmp(a, b) > 0;

function fullPermutations(A) {
  const out = [];
  const size = A.length;
  for (;;) {
    out.push(tuple([...A]));
    let i = size - 2;
    while (i >= 0 && !lt(A[i], A[i + 1])) i -= 1;
    if (i < 0) return out;
    let j = size - 1;
    while (j > i && !lt(A[i], A[j])) j -= 1;
    [A[i], A[j]] = [A[j], A[i]];
    const tail = A.slice(i + 1).reverse();
    A.splice(i + 1, tail.length, ...tail);
  }
}

function partialPermutations(A, r) {
  const out = [];
  const head = A.slice(0, r);
  let tail = A.slice(r);
  for (;;) {
    out.push(tuple([...head]));
    let pivot = tail[tail.length - 1];
    let i = r - 1;
    for (; i >= 0; i -= 1) {
      if (lt(head[i], pivot)) break;
      pivot = head[i];
    }
    if (i < 0) return out;
    let swapped = false;
    for (let j = 0; j < tail.length; j += 1) {
      if (gt(tail[j], head[i])) {
        [head[i], tail[j]] = [tail[j], head[i]];
        swapped = true;
        break;
      }
    }
    if (!swapped) {
      for (let j = r - 1; j >= 0; j -= 1) {
        if (gt(head[j], head[i])) {
          [head[i], head[j]] = [head[j], head[i]];
          break;
        }
      }
    }
    tail = tail.concat(head.slice(i + 1).reverse());
    i += 1;
    const moved = tail.slice(0, r - i);
    tail = tail.slice(r - i);
    head.splice(i, head.length - i, ...moved);
  }
}

export function distinctPermutations(items, r = null) {
  const sorted = [...items].sort(strCmp);
  const size = sorted.length;
  if (r === null) r = size;
  if (r > 0 && r <= size) return r === size ? fullPermutations(sorted) : partialPermutations(sorted, r);
  return r ? [] : [tuple([])];
}

export function distinctCombinations(items, r) {
  if (r < 0) throw new PyValueError("r must be non-negative");
  if (r === 0) return [tuple([])];
  const out = [];
  const combo = [];
  const walk = (start, level) => {
    const seen = new Set();
    for (let idx = start; idx < items.length; idx += 1) {
      if (seen.has(items[idx])) continue;
      seen.add(items[idx]);
      combo[level] = items[idx];
      if (level + 1 === r) out.push(tuple(combo.slice(0, r)));
      else walk(idx + 1, level + 1);
    }
  };
  walk(0, 0);
  return out;
}

function combinations(pool, r) {
  const out = [];
  const pick = (start, chosen) => {
    if (chosen.length === r) return void out.push(chosen);
    for (let i = start; i < pool.length; i += 1) pick(i + 1, [...chosen, pool[i]]);
  };
  pick(0, []);
  return out;
}

export function powerset(items) {
  const out = [];
  for (let r = 0; r <= items.length; r += 1) for (const c of combinations(items, r)) out.push(tuple(c));
  return out;
}

function setPartitionsHelper(L, k) {
  const n = L.length;
  if (k === 1) return [[L]];
  if (n === k) return [L.map((s) => [s])];
  const [e, ...M] = L;
  const out = [];
  for (const p of setPartitionsHelper(M, k - 1)) out.push([[e], ...p]);
  for (const p of setPartitionsHelper(M, k)) {
    for (let i = 0; i < p.length; i += 1) out.push([...p.slice(0, i), [e, ...p[i]], ...p.slice(i + 1)]);
  }
  return out;
}

export function setPartitions(items, k = null) {
  const n = items.length;
  if (k !== null) {
    if (k < 1) throw new PyValueError("Can't partition in a negative or zero number of groups");
    if (k > n) return [];
    return setPartitionsHelper(items, k);
  }
  const out = [];
  for (let kk = 1; kk <= n; kk += 1) out.push(...setPartitionsHelper(items, kk));
  return out;
}

export function partitions(items) {
  const n = items.length;
  const cuts = [];
  for (let r = 0; r <= Math.max(0, n - 1); r += 1) {
    cuts.push(...combinations(Array.from({ length: Math.max(0, n - 1) }, (_, i) => i + 1), r));
  }
  return cuts.map((cut) => {
    const starts = [0, ...cut];
    const ends = [...cut, n];
    return starts.map((s, i) => items.slice(s, ends[i]));
  });
}

export function circularShifts(items) {
  const out = [];
  let buffer = [...items];
  for (let i = 0; i < items.length; i += 1) {
    out.push(tuple([...buffer]));
    buffer = [...buffer.slice(1), buffer[0]];
  }
  return out;
}

export function uniqueEverseen(items) {
  return [...new Set(items)];
}

export function runLengthEncode(items) {
  const out = [];
  for (const item of items) {
    const last = out[out.length - 1];
    if (last && last.items[0] === item) last.items[1] += 1n;
    else out.push(tuple([item, 1n]));
  }
  return out;
}

export function locate(items, pred) {
  return items.flatMap((item, i) => (pred(item) ? [BigInt(i)] : []));
}
