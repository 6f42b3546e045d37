// Count the words of stdin in a tsl::hopscotch_map<std::string, long> and print them by frequency.
// Words are maximal runs of bytes that are not C whitespace; --fold yes lower-cases ASCII letters first.
// The map's own order is never printed: the words are sorted (count descending, then bytes ascending).
//
// Usage: hopscotch_wordcount [--top K] [--fold yes|no] < text
#include <tsl/hopscotch_map.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

static void usage(const char *message) {
    std::fprintf(stderr, "usage error: %s\n", message);
    std::exit(2);
}

static bool is_space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

int main(int argc, char **argv) {
    std::string top_arg = "0", fold_arg = "no";
    for (int i = 1; i < argc; i += 2) {
        if (i + 1 >= argc) usage("missing value");
        if (std::strcmp(argv[i], "--top") == 0)
            top_arg = argv[i + 1];
        else if (std::strcmp(argv[i], "--fold") == 0)
            fold_arg = argv[i + 1];
        else
            usage("unknown argument");
    }
    long top = 0;
    bool top_ok = !top_arg.empty() && top_arg.size() <= 7;
    for (char ch : top_arg) top_ok = top_ok && ch >= '0' && ch <= '9';
    if (!top_ok) {
        std::cout << "error: --top takes 0 to 9999999\n";
        return 0;
    }
    top = std::stol(top_arg);
    if (fold_arg != "yes" && fold_arg != "no") {
        std::cout << "error: --fold takes yes or no\n";
        return 0;
    }
    bool fold = fold_arg == "yes";

    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    tsl::hopscotch_map<std::string, long> counts;
    long words = 0;
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && is_space(text[i])) ++i;
        size_t start = i;
        while (i < text.size() && !is_space(text[i])) ++i;
        if (i == start) break;
        std::string word = text.substr(start, i - start);
        if (fold)
            for (char &ch : word)
                if (ch >= 'A' && ch <= 'Z') ch = char(ch - 'A' + 'a');
        ++counts[word];
        ++words;
    }

    std::vector<std::pair<std::string, long>> sorted(counts.begin(), counts.end());
    std::sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    std::cout << "words: " << words << "\n";
    std::cout << "distinct: " << counts.size() << "\n";
    size_t shown = top == 0 ? sorted.size() : std::min(sorted.size(), size_t(top));
    for (size_t k = 0; k < shown; ++k) std::cout << sorted[k].second << " " << sorted[k].first << "\n";
    return 0;
}
