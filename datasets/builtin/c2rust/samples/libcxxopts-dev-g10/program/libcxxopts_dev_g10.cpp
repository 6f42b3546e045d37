// Converts lengths between units; the command line is parsed by cxxopts straight into bound variables.
#include <cxxopts.hpp>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

struct Unit {
    const char* name;
    double metres;
};

static const Unit UNITS[] = {{"mm", 0.001}, {"cm", 0.01},     {"m", 1.0},       {"km", 1000.0},
                             {"in", 0.0254}, {"ft", 0.3048},  {"yd", 0.9144},   {"mi", 1609.344},
                             {"nmi", 1852.0}};

static const Unit* find_unit(const std::string& n)
{
    for (const Unit& u : UNITS) {
        if (n == u.name) return &u;
    }
    return nullptr;
}

int main(int argc, char** argv)
{
    std::string from, to;
    std::vector<double> values;
    int precision = 2;
    bool list = false;
    cxxopts::Options options("lconv", "length converter");
    cxxopts::OptionAdder(options, "")
        ("f,from", "source unit", cxxopts::value(from))
        ("t,to", "target unit", cxxopts::value(to))
        ("v,value", "a value to convert (repeatable, or comma-separated)", cxxopts::value(values))
        ("p,precision", "digits after the point", cxxopts::value(precision)->default_value("2"))
        ("l,list", "list the units", cxxopts::value(list));
    try {
        auto result = options.parse(argc, argv);
        if (list) {
            for (const Unit& u : UNITS) {
                char buf[64];
                std::snprintf(buf, sizeof buf, "%.4f", u.metres);
                std::cout << u.name << " = " << buf << " m\n";
            }
        }
        if (result.count("value") == 0) {
            if (!list) std::cout << "error: no value given\n";
            return 0;
        }
        if (result.count("from") == 0 || result.count("to") == 0) {
            std::cout << "error: both --from and --to are required\n";
            return 0;
        }
        if (result.count("from") > 1 || result.count("to") > 1) {
            std::cout << "note: the last --from/--to wins\n";
        }
        const Unit* a = find_unit(from);
        const Unit* b = find_unit(to);
        if (a == nullptr) {
            std::cout << "error: unknown unit '" << from << "'\n";
            return 0;
        }
        if (b == nullptr) {
            std::cout << "error: unknown unit '" << to << "'\n";
            return 0;
        }
        if (precision < 0 || precision > 10) {
            std::cout << "error: precision must be 0..10\n";
            return 0;
        }
        for (double x : values) {
            double y = x * a->metres / b->metres;
            char in[64], out[64];
            std::snprintf(in, sizeof in, "%.*f", precision, x);
            std::snprintf(out, sizeof out, "%.*f", precision, y);
            std::cout << in << " " << a->name << " = " << out << " " << b->name << "\n";
        }
        std::cout << "converted: " << values.size() << "\n";
    } catch (const cxxopts::exceptions::exception& e) {
        std::cout << "error: " << e.what() << "\n";
    }
    return 0;
}
