// Set algebra over two tsl::hopscotch_set<long long>: sizes, union, intersection, differences, symmetric
// difference, subset and equality, with optional erasures from the first set. Results are printed sorted.
//
// Usage: hopscotch_setops --a LIST --b LIST [--remove LIST]     LIST: comma-separated 64-bit integers
#include <tsl/hopscotch_set.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

using Set = tsl::hopscotch_set<long long>;

static void usage(const char *message) {
    std::fprintf(stderr, "usage error: %s\n", message);
    std::exit(2);
}

// [+-]?[0-9]+ within the signed 64-bit range.
static bool parse_item(const std::string &s, long long *out) {
    size_t pos = 0;
    bool negative = false;
    if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) negative = s[pos++] == '-';
    if (pos == s.size()) return false;
    unsigned long long value = 0;
    const unsigned long long limit = negative ? 9223372036854775808ull : 9223372036854775807ull;
    for (; pos < s.size(); ++pos) {
        if (s[pos] < '0' || s[pos] > '9') return false;
        unsigned digit = s[pos] - '0';
        if (value > (limit - digit) / 10) return false;
        value = value * 10 + digit;
    }
    *out = negative ? (long long)(0 - value) : (long long)value;
    return true;
}

// Items in order; an empty LIST is no items. False (with a message printed) on a bad item.
static bool parse_list(const char *name, const std::string &text, std::vector<long long> *items) {
    if (text.empty()) return true;
    size_t start = 0, index = 0;
    while (true) {
        size_t comma = text.find(',', start);
        std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        ++index;
        long long value;
        if (!parse_item(item, &value)) {
            std::cout << "error: " << name << ": item " << index << " is not a 64-bit integer\n";
            return false;
        }
        items->push_back(value);
        if (comma == std::string::npos) return true;
        start = comma + 1;
    }
}

static void print(const char *label, const Set &set) {
    std::vector<long long> values(set.begin(), set.end());
    std::sort(values.begin(), values.end());
    std::cout << label << ":";
    if (values.empty()) std::cout << " (none)";
    for (long long v : values) std::cout << " " << v;
    std::cout << "\n";
}

int main(int argc, char **argv) {
    std::string a_text, b_text, remove_text;
    bool have_a = false, have_b = false, have_remove = false;
    for (int i = 1; i < argc; i += 2) {
        if (i + 1 >= argc) usage("missing value");
        if (std::strcmp(argv[i], "--a") == 0) {
            a_text = argv[i + 1];
            have_a = true;
        } else if (std::strcmp(argv[i], "--b") == 0) {
            b_text = argv[i + 1];
            have_b = true;
        } else if (std::strcmp(argv[i], "--remove") == 0) {
            remove_text = argv[i + 1];
            have_remove = true;
        } else {
            usage("unknown argument");
        }
    }
    if (!have_a || !have_b) usage("--a and --b are required");
    std::vector<long long> a_items, b_items, remove_items;
    if (!parse_list("a", a_text, &a_items) || !parse_list("b", b_text, &b_items) ||
        !parse_list("remove", remove_text, &remove_items))
        return 0;

    Set a(a_items.begin(), a_items.end()), b;
    for (long long v : b_items) b.insert(v);
    std::cout << "a: " << a.size() << " distinct of " << a_items.size() << "\n";
    std::cout << "b: " << b.size() << " distinct of " << b_items.size() << "\n";
    if (have_remove) {
        size_t removed = 0;
        for (long long v : remove_items) removed += a.erase(v);
        std::cout << "removed: " << removed << " (a now " << a.size() << ")\n";
    }

    Set uni = a, inter, a_minus_b, b_minus_a, sym;
    for (long long v : b) uni.insert(v);
    for (long long v : a) {
        if (b.count(v))
            inter.insert(v);
        else
            a_minus_b.insert(v);
    }
    for (long long v : b)
        if (a.find(v) == a.end()) b_minus_a.insert(v);
    sym = a_minus_b;
    sym.insert(b_minus_a.begin(), b_minus_a.end());
    print("union", uni);
    print("intersection", inter);
    print("a-b", a_minus_b);
    print("b-a", b_minus_a);
    print("symmetric", sym);
    std::cout << "a subset of b: " << (a_minus_b.empty() ? "yes" : "no") << "\n";
    std::cout << "equal: " << (a == b ? "yes" : "no") << "\n";
    return 0;
}
