// Renders GLM Perlin or simplex noise over a grid as ASCII shades, with the value range and a histogram.
#include <glm/glm.hpp>
#include <glm/gtc/noise.hpp>
#include <cfloat>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static bool num(const char* s, double& out)
{
    char* end = nullptr;
    if (*s == '\0') return false;
    out = std::strtod(s, &end);
    return *end == '\0' && out >= -DBL_MAX && out <= DBL_MAX;
}

int main(int argc, char** argv)
{
    if (argc != 7) {
        std::fprintf(stderr, "usage: %s perlin|simplex WIDTH HEIGHT SCALE OFFSETX OFFSETY\n", argv[0]);
        return 2;
    }
    bool perlin;
    if (std::strcmp(argv[1], "perlin") == 0) perlin = true;
    else if (std::strcmp(argv[1], "simplex") == 0) perlin = false;
    else {
        std::printf("error: unknown noise '%s'\n", argv[1]);
        return 0;
    }
    double w, h, scale, ox, oy;
    if (!num(argv[2], w) || !num(argv[3], h) || !num(argv[4], scale) || !num(argv[5], ox) || !num(argv[6], oy)) {
        std::printf("error: invalid number\n");
        return 0;
    }
    if (w < 1 || w > 80 || h < 1 || h > 40 || w != (int)w || h != (int)h) {
        std::printf("error: size must be whole numbers, width 1..80 and height 1..40\n");
        return 0;
    }
    if (scale <= 0.0 || scale > 1000.0) {
        std::printf("error: scale must be in (0, 1000]\n");
        return 0;
    }
    const char* shades = " .:-=+*#%@";
    int hist[10] = {0};
    float lo = 1e30f, hi = -1e30f;
    for (int y = 0; y < (int)h; y++) {
        char row[81];
        for (int x = 0; x < (int)w; x++) {
            glm::vec2 p((float)((x + ox) / scale), (float)((y + oy) / scale));
            float n = perlin ? glm::perlin(p) : glm::simplex(p);
            if (n < lo) lo = n;
            if (n > hi) hi = n;
            int k = (int)((n + 1.0f) * 5.0f);
            if (k < 0) k = 0;
            if (k > 9) k = 9;
            hist[k]++;
            row[x] = shades[k];
        }
        row[(int)w] = '\0';
        std::printf("|%s|\n", row);
    }
    std::printf("min %.6f max %.6f\n", lo, hi);
    for (int k = 0; k < 10; k++) std::printf("'%c' %d\n", shades[k], hist[k]);
    return 0;
}
