// Builds a cxxopts option table from "group|names|description|type|default|implicit|arghelp" lines on stdin and prints its help text.
#include <cxxopts.hpp>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

static std::vector<std::string> split_fields(const std::string& line)
{
    std::vector<std::string> f;
    std::string cur;
    for (char c : line) {
        if (c == '|') {
            f.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    f.push_back(cur);
    while (f.size() < 7) f.push_back("");
    return f;
}

static bool parse_width(const std::string& s, int& out)
{
    if (s.size() == 0 || s.size() > 4) return false;
    int v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + (c - '0');
    }
    out = v;
    return true;
}

int main(int argc, char** argv)
{
    if (argc < 4) {
        std::cerr << "usage: " << argv[0] << " WIDTH yes|no(tabs) yes|no(show positional) [GROUP...]\n";
        return 2;
    }
    int width = 0;
    if (!parse_width(argv[1], width)) {
        std::cout << "error: invalid width '" << argv[1] << "'\n";
        return 0;
    }
    std::string tabs = argv[2], showpos = argv[3];
    if ((tabs != "yes" && tabs != "no") || (showpos != "yes" && showpos != "no")) {
        std::cout << "error: expected yes or no\n";
        return 0;
    }
    cxxopts::Options options("tool", "A generated tool.");
    options.set_width(static_cast<size_t>(width));
    options.set_tab_expansion(tabs == "yes");
    options.custom_help("[OPTIONS]");
    options.positional_help("FILE...");
    if (showpos == "yes") options.show_positional_help();
    try {
        options.add_options()("files", "input files", cxxopts::value<std::vector<std::string>>());
        options.parse_positional({"files"});
        std::string line;
        int lineno = 0;
        while (std::getline(std::cin, line)) {
            lineno++;
            std::vector<std::string> f = split_fields(line);
            const std::string& type = f[3];
            std::shared_ptr<cxxopts::Value> v;
            if (type == "flag") v = cxxopts::value<bool>();
            else if (type == "int") v = cxxopts::value<int>();
            else if (type == "string") v = cxxopts::value<std::string>();
            else if (type == "list") v = cxxopts::value<std::vector<std::string>>();
            else {
                std::cout << "error: line " << lineno << ": unknown type '" << type << "'\n";
                return 0;
            }
            if (f[4].size()) v->default_value(f[4]);
            if (f[5].size()) v->implicit_value(f[5]);
            options.add_options(f[0])(f[1], f[2], v, f[6]);
        }
    } catch (const cxxopts::exceptions::exception& e) {
        std::cout << "error: " << e.what() << "\n";
        return 0;
    }
    std::vector<std::string> gs = options.groups();
    std::cout << "groups:";
    for (const std::string& g : gs) std::cout << " '" << g << "'";
    std::cout << "\n----\n";
    std::vector<std::string> want;
    for (int i = 4; i < argc; i++) want.push_back(argv[i]);
    std::cout << options.help(want);
    std::cout << "----\n";
    return 0;
}
