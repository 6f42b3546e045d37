// Converts #RRGGBB colours between sRGB and linear light with GLM's colour-space functions.
#include <glm/glm.hpp>
#include <glm/gtc/color_space.hpp>
#include <cstdio>
#include <cstring>

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int to_byte(double x)
{
    double v = x * 255.0 + 0.5;
    if (v < 0) v = 0;
    if (v > 255) v = 255;
    return (int)v;
}

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s to-linear|to-srgb COLOR...\n", argv[0]);
        return 2;
    }
    bool to_linear;
    if (std::strcmp(argv[1], "to-linear") == 0) to_linear = true;
    else if (std::strcmp(argv[1], "to-srgb") == 0) to_linear = false;
    else {
        std::printf("error: unknown direction '%s'\n", argv[1]);
        return 0;
    }
    for (int i = 2; i < argc; i++) {
        const char* s = argv[i];
        const char* h = s[0] == '#' ? s + 1 : s;
        int rgb[3];
        bool ok = std::strlen(h) == 6;
        for (int k = 0; ok && k < 3; k++) {
            int a = hexval(h[2 * k]), b = hexval(h[2 * k + 1]);
            if (a < 0 || b < 0) ok = false;
            else rgb[k] = a * 16 + b;
        }
        if (!ok) {
            std::printf("%s: error: expected #RRGGBB\n", s);
            continue;
        }
        glm::dvec3 in(rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0);
        glm::dvec3 out = to_linear ? glm::convertSRGBToLinear(in) : glm::convertLinearToSRGB(in);
        std::printf("#%02x%02x%02x -> (%.6f, %.6f, %.6f) = #%02x%02x%02x\n", rgb[0], rgb[1], rgb[2], out.x, out.y,
                    out.z, to_byte(out.x), to_byte(out.y), to_byte(out.z));
    }
    return 0;
}
