// Scans hex-encoded MessagePack from stdin with a SAX-style visitor (msgpack::parse) and prints integer, string and container statistics.
#include <msgpack.hpp>
#include <cctype>
#include <iostream>
#include <iterator>
#include <string>

struct Stats : msgpack::null_visitor {
    long ints = 0, strs = 0, arrays = 0, maps = 0, elements = 0, pairs = 0;
    long str_bytes = 0, longest = 0;
    long long int_sum = 0;
    bool visit_positive_integer(uint64_t v) { ints++; int_sum += (long long)v; return true; }
    bool visit_negative_integer(int64_t v) { ints++; int_sum += v; return true; }
    bool visit_str(const char *, uint32_t n) {
        strs++;
        str_bytes += n;
        if ((long)n > longest) longest = n;
        return true;
    }
    bool start_array(uint32_t n) { arrays++; elements += n; return true; }
    bool start_map(uint32_t n) { maps++; pairs += n; return true; }
    void parse_error(size_t, size_t) { std::cout << "error: invalid data\n"; }
    void insufficient_bytes(size_t, size_t) { std::cout << "error: truncated input\n"; }
};

int main()
{
    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    std::string raw;
    int hi = -1;
    for (char c : text) {
        if (std::isspace((unsigned char)c)) continue;
        if (!std::isxdigit((unsigned char)c)) {
            std::cout << "error: not a hex digit\n";
            return 0;
        }
        int v = std::isdigit((unsigned char)c) ? c - '0' : std::tolower((unsigned char)c) - 'a' + 10;
        if (hi < 0) hi = v;
        else {
            raw += (char)(hi * 16 + v);
            hi = -1;
        }
    }
    if (hi >= 0) {
        std::cout << "error: odd number of hex digits\n";
        return 0;
    }
    Stats st;
    std::size_t off = 0;
    int docs = 0;
    while (off < raw.length()) {
        if (!msgpack::parse(raw.c_str(), raw.length(), off, st)) break;
        docs++;
    }
    std::cout << "documents: " << docs << " (" << off << " of " << raw.length() << " bytes)\n";
    std::cout << "integers: " << st.ints << " (sum " << st.int_sum << ")\n";
    std::cout << "strings: " << st.strs << " (" << st.str_bytes << " bytes, longest " << st.longest << ")\n";
    std::cout << "arrays: " << st.arrays << " (" << st.elements << " elements), maps: " << st.maps << " ("
              << st.pairs << " pairs)\n";
    return 0;
}
