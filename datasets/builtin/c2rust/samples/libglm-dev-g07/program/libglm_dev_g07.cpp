// Tabulates GLM's common scalar functions (floor, ceil, round, fract, sign, abs, mod, clamp, mix, step, smoothstep) for sample values.
#include <glm/glm.hpp>
#include <cfloat>
#include <cstdio>
#include <cstdlib>

static bool num(const char* s, double& out)
{
    char* end = nullptr;
    if (*s == '\0') return false;
    out = std::strtod(s, &end);
    return *end == '\0' && out >= -DBL_MAX && out <= DBL_MAX;
}

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s EDGE0 EDGE1 [X...]\n", argv[0]);
        return 2;
    }
    double e0, e1;
    if (!num(argv[1], e0)) {
        std::printf("error: invalid number '%s'\n", argv[1]);
        return 0;
    }
    if (!num(argv[2], e1)) {
        std::printf("error: invalid number '%s'\n", argv[2]);
        return 0;
    }
    if (e0 >= e1) {
        std::printf("error: EDGE0 must be less than EDGE1\n");
        return 0;
    }
    std::printf("edges %.6f %.6f, period %.6f\n", e0, e1, e1 - e0);
    int shown = 0;
    for (int i = 3; i < argc; i++) {
        double x;
        if (!num(argv[i], x)) {
            std::printf("x=%s: error: invalid number\n", argv[i]);
            continue;
        }
        std::printf("x=%.6f\n", x);
        std::printf("  floor %.6f ceil %.6f round %.6f fract %.6f\n", glm::floor(x), glm::ceil(x), glm::round(x),
                    glm::fract(x));
        std::printf("  sign %.6f abs %.6f mod %.6f\n", glm::sign(x), glm::abs(x), glm::mod(x, e1 - e0));
        std::printf("  clamp %.6f mix %.6f\n", glm::clamp(x, e0, e1), glm::mix(e0, e1, x));
        std::printf("  step %.6f smoothstep %.6f\n", glm::step(e0, x), glm::smoothstep(e0, e1, x));
        shown++;
    }
    std::printf("values: %d\n", shown);
    return 0;
}
