// Drives one cxxopts value object through a script of default=/implicit=/noimplicit/parse=/reset steps and reports its state.
#include <cxxopts.hpp>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

static std::string show(const std::string& type, const std::shared_ptr<cxxopts::Value>& v)
{
    if (type == "bool") {
        return std::dynamic_pointer_cast<cxxopts::values::standard_value<bool>>(v)->get() ? "true" : "false";
    }
    if (type == "int") {
        return std::to_string(std::dynamic_pointer_cast<cxxopts::values::standard_value<int>>(v)->get());
    }
    if (type == "double") {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.6f", std::dynamic_pointer_cast<cxxopts::values::standard_value<double>>(v)->get());
        return buf;
    }
    if (type == "string") {
        return "\"" + std::dynamic_pointer_cast<cxxopts::values::standard_value<std::string>>(v)->get() + "\"";
    }
    const std::vector<int>& l = std::dynamic_pointer_cast<cxxopts::values::standard_value<std::vector<int>>>(v)->get();
    std::string s = "[";
    for (size_t i = 0; i < l.size(); i++) s += (i ? "," : "") + std::to_string(l[i]);
    return s + "]";
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::cerr << "usage: " << argv[0] << " bool|int|double|string|list [STEP...]\n";
        return 2;
    }
    std::string type = argv[1];
    std::shared_ptr<cxxopts::Value> v;
    if (type == "bool") v = cxxopts::value<bool>();
    else if (type == "int") v = cxxopts::value<int>();
    else if (type == "double") v = cxxopts::value<double>();
    else if (type == "string") v = cxxopts::value<std::string>();
    else if (type == "list") v = cxxopts::value<std::vector<int>>();
    else {
        std::cout << "error: unknown type '" << type << "'\n";
        return 0;
    }
    std::cout << "type " << type << ": boolean=" << (v->is_boolean() ? "yes" : "no")
              << " container=" << (v->is_container() ? "yes" : "no") << "\n";
    for (int i = 2; i < argc; i++) {
        std::string step = argv[i];
        if (step.compare(0, 8, "default=") == 0) {
            v->default_value(step.substr(8));
            std::cout << "default set to '" << step.substr(8) << "'\n";
        } else if (step.compare(0, 9, "implicit=") == 0) {
            v->implicit_value(step.substr(9));
            std::cout << "implicit set to '" << step.substr(9) << "'\n";
        } else if (step == "noimplicit") {
            v->no_implicit_value();
            std::cout << "implicit removed\n";
        } else if (step.compare(0, 6, "parse=") == 0) {
            try {
                v->parse(step.substr(6));
                std::cout << "parse '" << step.substr(6) << "' -> " << show(type, v) << "\n";
            } catch (const cxxopts::exceptions::exception& e) {
                std::cout << "parse '" << step.substr(6) << "' -> error: " << e.what() << "\n";
            }
        } else if (step == "reset") {
            try {
                v->parse();
                std::cout << "reset to default -> " << show(type, v) << "\n";
            } catch (const cxxopts::exceptions::exception& e) {
                std::cout << "reset to default -> error: " << e.what() << "\n";
            }
        } else {
            std::cout << "error: unknown step '" << step << "'\n";
        }
    }
    std::cout << "has_default=" << (v->has_default() ? "yes" : "no") << " default='" << v->get_default_value() << "'\n";
    std::cout << "has_implicit=" << (v->has_implicit() ? "yes" : "no") << " implicit='" << v->get_implicit_value()
              << "'\n";
    std::cout << "value: " << show(type, v) << "\n";
    return 0;
}
