// Encodes its arguments as different C++ standard containers (vector, set, map, pair, tuple, optional...) with msgpack::pack and prints the MessagePack bytes in hex.
#include <msgpack.hpp>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

// Collects the packed bytes (msgpack::pack needs a stream with write()).
struct Collector {
    std::string out;
    void write(const char *p, std::size_t n) { out.append(p, n); }
};

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s KIND [VALUE...]\n", argv[0]);
        return 2;
    }
    std::string kind = argv[1];
    std::vector<std::string> words(argv + 2, argv + argc);
    const int n = argc - 2;
    std::vector<long long> nums;
    bool all_numeric = true;
    for (const std::string &w : words) {
        char *end;
        long long v = std::strtoll(w.c_str(), &end, 10);
        if (w.length() == 0 || *end) all_numeric = false;
        nums.push_back(v);
    }
    Collector c;
    if (kind == "vector") msgpack::pack(c, words);
    else if (kind == "set" || kind == "multiset") {
        std::set<std::string> s;
        std::multiset<std::string> ms;
        for (const std::string &w : words) {
            s.insert(w);
            ms.insert(w);
        }
        if (kind == "set") msgpack::pack(c, s);
        else msgpack::pack(c, ms);
    }
    else if (kind == "list") msgpack::pack(c, std::list<std::string>(words.rbegin(), words.rend()));
    else if (kind == "lengths") {
        std::map<std::string, std::size_t> m;
        for (const std::string &w : words) m[w] = w.length();
        msgpack::pack(c, m);
    } else if (kind == "pair" || kind == "tuple" || kind == "optional" || kind == "ints" || kind == "bools") {
        if (kind == "pair") {
            if (n != 2) {
                std::printf("error: pair needs exactly 2 values\n");
                return 0;
            }
            msgpack::pack(c, std::make_pair(words[0], words[1]));
        } else if (kind == "tuple") {
            if (n != 3 || !all_numeric) {
                std::printf("error: tuple needs a word count of 3 numbers\n");
                return 0;
            }
            msgpack::pack(c, std::make_tuple(nums[0], (double)nums[1] / 2.0, nums[2] != 0));
        } else if (kind == "optional") {
            std::optional<std::string> o;
            if (n > 0) o = words[0];
            msgpack::pack(c, o);
        } else if (kind == "ints") {
            if (!all_numeric) {
                std::printf("error: ints needs integer values\n");
                return 0;
            }
            msgpack::pack(c, nums);
        } else {
            std::vector<bool> bits;
            for (const std::string &w : words) bits.push_back(w == "1" || w == "true");
            msgpack::pack(c, bits);
        }
    } else {
        std::printf("error: unknown kind '%s'\n", kind.c_str());
        return 0;
    }
    std::printf("%s: %zu bytes\n", kind.c_str(), c.out.length());
    for (std::size_t i = 0; i < c.out.length(); i++)
        std::printf("%02x%s", (unsigned char)c.out[i], (i % 16 == 15 || i + 1 == c.out.length()) ? "\n" : " ");
    return 0;
}
