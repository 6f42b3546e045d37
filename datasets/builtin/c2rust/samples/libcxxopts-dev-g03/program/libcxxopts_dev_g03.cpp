// Sorts words into booleans, integers (sign, base, digits) and other text using cxxopts' literal recognisers.
#include <cxxopts.hpp>
#include <iostream>
#include <string>

int main(int argc, char** argv)
{
    int trues = 0, falses = 0, ints = 0, others = 0;
    for (int i = 1; i < argc; i++) {
        std::string w = argv[i];
        bool t = cxxopts::values::parser_tool::IsTrueText(w);
        bool f = cxxopts::values::parser_tool::IsFalseText(w);
        std::cout << "'" << w << "':";
        if (t) {
            std::cout << " bool=true";
            trues++;
        }
        if (f) {
            std::cout << " bool=false";
            falses++;
        }
        bool is_int = true;
        cxxopts::values::parser_tool::IntegerDesc d;
        try {
            d = cxxopts::values::parser_tool::SplitInteger(w);
        } catch (const cxxopts::exceptions::incorrect_argument_type&) {
            is_int = false;
        }
        if (is_int) {
            ints++;
            std::cout << " int-shape(sign=" << (d.negative.size() ? "-" : "+") << " base="
                      << (d.base.size() ? "16" : "10") << " digits=" << d.value << ")";
        }
        if (!t && !f && !is_int) {
            others++;
            std::cout << " other";
        }
        std::cout << "\n";
    }
    std::cout << "true: " << trues << ", false: " << falses << ", integer-shaped: " << ints << ", other: " << others
              << "\n";
    return 0;
}
