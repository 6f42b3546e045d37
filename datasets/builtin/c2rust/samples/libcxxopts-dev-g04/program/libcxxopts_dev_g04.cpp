// A tiny grep: options parsed with cxxopts (-i, -v, -n, -c, -m N, -e PATTERN or a positional pattern) filter stdin lines.
#include <cxxopts.hpp>
#include <cctype>
#include <iostream>
#include <string>
#include <vector>

static std::string lower(std::string s)
{
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

int main(int argc, char** argv)
{
    cxxopts::Options options("minigrep", "print lines that contain a pattern");
    options.add_option("", cxxopts::Option("i,ignore-case", "match case-insensitively (ASCII)"));
    options.add_option("", cxxopts::Option("v,invert", "print lines that do not match"));
    options.add_option("", cxxopts::Option("n,line-number", "prefix each line with its number"));
    options.add_option("", cxxopts::Option("c,count", "print only the number of selected lines"));
    options.add_option("", cxxopts::Option("m,max-count", "stop after N selected lines", cxxopts::value<int>()));
    options.add_option("", cxxopts::Option("e,regexp", "the pattern", cxxopts::value<std::string>()));
    options.add_option("", cxxopts::Option("pattern", "the pattern (positional)", cxxopts::value<std::string>()));
    options.add_option("", cxxopts::Option("rest", "extra positional arguments", cxxopts::value<std::vector<std::string>>()));
    options.parse_positional({"pattern", "rest"});
    std::string pattern;
    bool icase, invert, number, count_only;
    int max = -1;
    size_t extra = 0;
    try {
        auto result = options.parse(argc, argv);
        if (result.count("regexp")) {
            pattern = result["regexp"].as<std::string>();
            if (result.count("pattern")) extra++;
        } else if (result.count("pattern")) {
            pattern = result["pattern"].as<std::string>();
        } else {
            std::cout << "error: no pattern given\n";
            return 0;
        }
        if (result.count("rest")) extra += result["rest"].as<std::vector<std::string>>().size();
        icase = result.count("ignore-case") > 0;
        invert = result.count("invert") > 0;
        number = result.count("line-number") > 0;
        count_only = result.count("count") > 0;
        if (result.count("max-count")) {
            max = result["max-count"].as<int>();
            if (max < 0) {
                std::cout << "error: max-count must not be negative\n";
                return 0;
            }
        }
    } catch (const cxxopts::exceptions::exception& e) {
        std::cout << "error: " << e.what() << "\n";
        return 0;
    }
    if (extra > 0) std::cout << "note: " << extra << " extra argument(s) ignored\n";
    std::string needle = icase ? lower(pattern) : pattern;
    std::string line;
    int lineno = 0, selected = 0;
    while (std::getline(std::cin, line)) {
        lineno++;
        if (max >= 0 && selected >= max) break;
        std::string hay = icase ? lower(line) : line;
        bool hit = hay.find(needle) != std::string::npos;
        if (hit == invert) continue;
        selected++;
        if (!count_only) {
            if (number) std::cout << lineno << ":";
            std::cout << line << "\n";
        }
    }
    if (count_only) std::cout << selected << "\n";
    return 0;
}
