// The observable behaviour of sortedcontainers 2.4.0's SortedList over BigInt values: a sorted array
// with binary search, Python index rules and Python's error messages.
import { PyError } from "./pyerror.mjs";

function bisect(values, x, right) {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const goLeft = right ? x < values[mid] : !(values[mid] < x);
    if (goLeft) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function sliceIndices(start, stop, length) {
  // Python slice(start, stop).indices(length) for step 1, with BigInt or null bounds.
  const clamp = (v, dflt) => {
    if (v === null || v === undefined) return dflt;
    let n = v < 0n ? BigInt(length) + v : v;
    if (n < 0n) n = 0n;
    if (n > BigInt(length)) n = BigInt(length);
    return Number(n);
  };
  return [clamp(start, 0), clamp(stop, length)];
}

export class SortedList {
  constructor(values = []) {
    this.values = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  get length() {
    return this.values.length;
  }

  add(x) {
    this.values.splice(bisect(this.values, x, true), 0, x);
  }

  update(xs) {
    for (const x of xs) this.add(x);
  }

  contains(x) {
    const i = bisect(this.values, x, false);
    return i < this.values.length && this.values[i] === x;
  }

  discard(x) {
    if (this.contains(x)) this.values.splice(bisect(this.values, x, false), 1);
  }

  remove(x) {
    if (!this.contains(x)) throw new PyError("ValueError", `${x} not in list`);
    this.discard(x);
  }

  position(index) {
    const n = BigInt(this.values.length);
    const i = index < 0n ? index + n : index;
    if (i < 0n || i >= n) throw new PyError("IndexError", "list index out of range");
    return Number(i);
  }

  pop(index = -1n) {
    if (!this.values.length) throw new PyError("IndexError", "pop index out of range");
    return this.values.splice(this.position(index), 1)[0];
  }

  at(index) {
    return this.values[this.position(index)];
  }

  delete(index) {
    this.values.splice(this.position(index), 1);
  }

  bisectLeft(x) {
    return bisect(this.values, x, false);
  }

  bisectRight(x) {
    return bisect(this.values, x, true);
  }

  count(x) {
    return this.bisectRight(x) - this.bisectLeft(x);
  }

  index(x) {
    if (!this.contains(x)) throw new PyError("ValueError", `${x} is not in list`);
    return this.bisectLeft(x);
  }

  irange(min, max) {
    return this.values.filter((v) => v >= min && v <= max);
  }

  islice(start, stop) {
    const [a, b] = sliceIndices(start, stop, this.values.length);
    return a >= b ? [] : this.values.slice(a, b);
  }
}
