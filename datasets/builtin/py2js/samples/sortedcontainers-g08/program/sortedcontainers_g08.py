"""Match a script of limit orders in a price-level order book and report fills, book levels, spread, depth and trade statistics (sortedcontainers SortedDict / SortedList)."""
import argparse
import sys

import sortedcontainers


class Book:
    def __init__(self):
        self.bids = sortedcontainers.SortedDict()
        self.asks = sortedcontainers.SortedDict()
        self.prices = sortedcontainers.SortedList()
        self.volume = 0

    def order(self, side, price, qty):
        fills = []
        other = self.asks if side == "buy" else self.bids
        while qty > 0 and other:
            best, level = other.peekitem(0) if side == "buy" else other.peekitem(-1)
            if (side == "buy" and best > price) or (side == "sell" and best < price):
                break
            take = min(qty, level)
            fills.append(f"{take}@{best}")
            self.prices.add(best)
            self.volume += take
            qty -= take
            if take == level:
                other.popitem(0 if side == "buy" else -1)
            else:
                other[best] = level - take
        if qty > 0:
            own = self.bids if side == "buy" else self.asks
            own[price] = own.setdefault(price, 0) + qty
        rest = f", rests {qty}" if qty > 0 else ""
        return f"filled {' '.join(fills) if fills else 'nothing'}{rest}"

    def cancel(self, side, price, qty=None):
        own = self.bids if side == "buy" else self.asks
        if price not in own:
            return f"no {side} level at {price}"
        if qty is None or qty >= own[price]:
            removed = own.pop(price)
            return f"removed level {price} ({removed})"
        own[price] -= qty
        return f"level {price} now {own[price]}"

    def show(self, levels):
        levels = max(levels, 0)
        bids = [f"{p}x{self.bids[p]}" for p in self.bids.islice(max(len(self.bids) - levels, 0), None, reverse=True)] if levels else []
        asks = [f"{p}x{self.asks[p]}" for p in self.asks.islice(0, levels)]
        return f"bids [{' '.join(bids)}] asks [{' '.join(asks)}]"

    def spread(self):
        if not self.bids or not self.asks:
            return "one side empty"
        bid, ask = self.bids.peekitem(-1)[0], self.asks.peekitem(0)[0]
        return f"bid {bid} ask {ask} spread {ask - bid}"

    def depth(self, price):
        bid_qty = sum(self.bids[p] for p in self.bids.irange(minimum=price))
        ask_qty = sum(self.asks[p] for p in self.asks.irange(maximum=price))
        return f"bids at or above {price}: {bid_qty}, asks at or below {price}: {ask_qty}"

    def trades(self, low=None, high=None):
        if not self.prices:
            return "no trades"
        n = len(self.prices)
        text = f"{n} trades, volume {self.volume}, low {self.prices[0]}, high {self.prices[-1]}, median {self.prices[(n - 1) // 2]}"
        if low is not None:
            inside = list(self.prices.irange(low, high))
            text += f", {len(inside)} in [{low}, {high}]"
        return text


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--levels", type=int, default=5, help="levels shown by 'book'")
    args = parser.parse_args()

    book = Book()
    for line in sys.stdin.read().splitlines():
        words = line.split()
        if not words:
            continue
        cmd = words[0].lower()
        try:
            nums = [int(w) for w in words[1:] if w not in ("buy", "sell")]
            sides = [w for w in words[1:] if w in ("buy", "sell")]
            if cmd in ("buy", "sell") and len(nums) == 2 and not sides:
                if nums[0] <= 0 or nums[1] <= 0:
                    result = "rejected: price and quantity must be positive"
                else:
                    result = book.order(cmd, nums[0], nums[1])
            elif cmd == "cancel" and len(sides) == 1 and len(nums) in (1, 2) and words[1] in ("buy", "sell"):
                result = book.cancel(sides[0], *nums)
            elif cmd == "book" and len(nums) <= 1 and not sides:
                result = book.show(nums[0] if nums else args.levels)
            elif cmd == "spread" and not nums and not sides:
                result = book.spread()
            elif cmd == "depth" and len(nums) == 1 and not sides:
                result = book.depth(nums[0])
            elif cmd == "trades" and len(nums) in (0, 2) and not sides:
                result = book.trades(*nums)
            else:
                result = "bad command"
        except ValueError:
            result = "bad number"
        print(f"{' '.join(words)} -> {result}")
    print(f"final: {book.show(args.levels)}; {book.trades()}")


if __name__ == "__main__":
    main()
