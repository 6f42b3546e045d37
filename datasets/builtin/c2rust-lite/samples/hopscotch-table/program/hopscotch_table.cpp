// A command script over one tsl::hopscotch_map<long long, long long>: inserts, assignments, lookups,
// erasures, bulk ranges, and the table's own shape — bucket count, load factor, max load factor, reserve,
// rehash, the overflow list and the iteration order (which, for integer keys, is fully determined by the
// keys and the order of operations: std::hash<long long> is the identity).
//
// Usage: hopscotch_table < script      (no arguments)
#include <tsl/hopscotch_map.h>

#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>
#include <algorithm>

using Map = tsl::hopscotch_map<long long, long long>;

struct Failure {
    std::string message;
};

// [+-]?[0-9]+ fitting a signed 64-bit integer.
static long long parse_int(const std::string &s) {
    size_t pos = 0;
    bool negative = false;
    if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) negative = s[pos++] == '-';
    if (pos == s.size()) throw Failure{"bad number"};
    unsigned long long value = 0;
    const unsigned long long limit = negative ? 9223372036854775808ull : 9223372036854775807ull;
    for (; pos < s.size(); ++pos) {
        if (s[pos] < '0' || s[pos] > '9') throw Failure{"bad number"};
        unsigned digit = s[pos] - '0';
        if (value > (limit - digit) / 10) throw Failure{"bad number"};
        value = value * 10 + digit;
    }
    return negative ? (long long)(0 - value) : (long long)value;
}

static long long parse_count(const std::string &s, long long max) {
    long long n = parse_int(s);
    if (n < 0 || n > max) throw Failure{"out of range"};
    return n;
}

static void need(const std::vector<std::string> &t, size_t n) {
    if (t.size() != n + 1) throw Failure{"expected " + std::to_string(n) + " argument" + (n == 1 ? "" : "s")};
}

static std::string run(Map &map, const std::vector<std::string> &t) {
    const std::string &cmd = t[0];
    std::ostringstream out;
    if (cmd == "insert") {
        need(t, 2);
        long long k = parse_int(t[1]), v;
        v = parse_int(t[2]);
        auto result = map.insert({k, v});
        if (result.second)
            out << "inserted";
        else
            out << "exists " << result.first->second;
    } else if (cmd == "set") {
        need(t, 2);
        long long k = parse_int(t[1]), v;
        v = parse_int(t[2]);
        out << (map.insert_or_assign(k, v).second ? "inserted" : "assigned");
    } else if (cmd == "get") {
        need(t, 1);
        auto it = map.find(parse_int(t[1]));
        if (it == map.end())
            out << "missing";
        else
            out << it->second;
    } else if (cmd == "count") {
        need(t, 1);
        out << map.count(parse_int(t[1]));
    } else if (cmd == "erase") {
        need(t, 1);
        out << map.erase(parse_int(t[1]));
    } else if (cmd == "size") {
        need(t, 0);
        out << map.size();
    } else if (cmd == "buckets") {
        need(t, 0);
        out << map.bucket_count();
    } else if (cmd == "overflow") {
        need(t, 0);
        out << map.overflow_size();
    } else if (cmd == "load") {
        need(t, 0);
        char text[64];
        std::snprintf(text, sizeof text, "%.6f", double(map.load_factor()));
        out << text;
    } else if (cmd == "max-load") {
        need(t, 1);
        long long percent = parse_count(t[1], 100);
        map.max_load_factor(float(percent) / 100.0f);
        char text[64];
        std::snprintf(text, sizeof text, "%.2f", double(map.max_load_factor()));
        out << text;
    } else if (cmd == "reserve" || cmd == "rehash") {
        need(t, 1);
        long long n = parse_count(t[1], 1000000);
        if (cmd == "reserve")
            map.reserve(size_t(n));
        else
            map.rehash(size_t(n));
        out << map.bucket_count();
    } else if (cmd == "clear") {
        need(t, 0);
        map.clear();
        out << map.bucket_count();
    } else if (cmd == "range") {
        need(t, 3);
        long long start = parse_int(t[1]);
        long long count = parse_count(t[2], 100000);
        long long step = parse_int(t[3]);
        for (long long i = 0; i < count; ++i) {
            long long key = (long long)((unsigned long long)start + (unsigned long long)i * (unsigned long long)step);
            map.insert({key, i});
        }
        out << "size " << map.size() << " buckets " << map.bucket_count();
    } else if (cmd == "dump") {
        need(t, 0);
        if (map.empty()) out << "(empty)";
        bool first = true;
        for (const auto &kv : map) {
            out << (first ? "" : " ") << kv.first << "=" << kv.second;
            first = false;
        }
    } else if (cmd == "sorted") {
        need(t, 0);
        std::vector<std::pair<long long, long long>> items(map.begin(), map.end());
        std::sort(items.begin(), items.end());
        if (items.empty()) out << "(empty)";
        for (size_t i = 0; i < items.size(); ++i) out << (i ? " " : "") << items[i].first << "=" << items[i].second;
    } else if (cmd == "checksum") {
        need(t, 0);
        unsigned long long sum = 0, i = 0;
        for (const auto &kv : map) {
            ++i;
            sum += i * (unsigned long long)kv.first + (unsigned long long)kv.second;
        }
        out << sum;
    } else {
        throw Failure{"unknown command"};
    }
    return out.str();
}

int main(int argc, char **) {
    if (argc != 1) {
        std::fprintf(stderr, "usage error: no arguments expected\n");
        return 2;
    }
    Map map;
    std::string line;
    long number = 0;
    while (std::getline(std::cin, line)) {
        ++number;
        std::istringstream words(line);
        std::vector<std::string> tokens;
        for (std::string w; words >> w;) tokens.push_back(w);
        if (tokens.empty() || tokens[0][0] == '#') continue;
        std::string result;
        try {
            result = run(map, tokens);
        } catch (const Failure &f) {
            result = "error: " + f.message;
        }
        std::cout << number << ": " << result << "\n";
    }
    return 0;
}
