// Runs a small transform script from stdin (translate/rotate/scale, camera, projection) and prints transformed, projected and unprojected points.
#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <cfloat>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

static bool num(const std::string& s, double& out)
{
    char* end = nullptr;
    if (s.size() == 0) return false;
    out = std::strtod(s.c_str(), &end);
    return *end == '\0' && out >= -DBL_MAX && out <= DBL_MAX;
}

int main()
{
    glm::dmat4 model(1.0), view(1.0), projection(1.0);
    const glm::dvec4 viewport(0.0, 0.0, 800.0, 600.0);
    std::string line;
    int lineno = 0;
    while (std::getline(std::cin, line)) {
        lineno++;
        std::istringstream in(line);
        std::string cmd, tok;
        if (!(in >> cmd)) continue;
        if (cmd[0] == '#') continue;
        std::vector<double> a;
        bool bad = false;
        while (in >> tok) {
            double x;
            if (!num(tok, x)) {
                std::printf("line %d: error: invalid number '%s'\n", lineno, tok.c_str());
                bad = true;
                break;
            }
            a.push_back(x);
        }
        if (bad) continue;
        size_t need = 0;
        if (cmd == "identity") need = 0;
        else if (cmd == "translate" || cmd == "scale" || cmd == "point" || cmd == "project" || cmd == "unproject") need = 3;
        else if (cmd == "rotate" || cmd == "perspective") need = 4;
        else if (cmd == "ortho") need = 6;
        else if (cmd == "camera") need = 9;
        else {
            std::printf("line %d: error: unknown command '%s'\n", lineno, cmd.c_str());
            continue;
        }
        if (a.size() != need) {
            std::printf("line %d: error: %s takes %d numbers\n", lineno, cmd.c_str(), (int)need);
            continue;
        }
        if (cmd == "identity") {
            model = glm::dmat4(1.0);
            std::printf("model reset\n");
        } else if (cmd == "translate") {
            model = glm::translate(model, glm::dvec3(a[0], a[1], a[2]));
            std::printf("translated\n");
        } else if (cmd == "scale") {
            model = glm::scale(model, glm::dvec3(a[0], a[1], a[2]));
            std::printf("scaled\n");
        } else if (cmd == "rotate") {
            if (a[1] == 0.0 && a[2] == 0.0 && a[3] == 0.0) {
                std::printf("line %d: error: zero rotation axis\n", lineno);
                continue;
            }
            model = glm::rotate(model, glm::radians(a[0]), glm::dvec3(a[1], a[2], a[3]));
            std::printf("rotated\n");
        } else if (cmd == "camera") {
            view = glm::lookAt(glm::dvec3(a[0], a[1], a[2]), glm::dvec3(a[3], a[4], a[5]), glm::dvec3(a[6], a[7], a[8]));
            std::printf("camera set\n");
        } else if (cmd == "perspective") {
            if (a[1] == 0.0 || a[2] == a[3]) {
                std::printf("line %d: error: degenerate perspective\n", lineno);
                continue;
            }
            projection = glm::perspective(glm::radians(a[0]), a[1], a[2], a[3]);
            std::printf("perspective set\n");
        } else if (cmd == "ortho") {
            if (a[0] == a[1] || a[2] == a[3] || a[4] == a[5]) {
                std::printf("line %d: error: degenerate ortho\n", lineno);
                continue;
            }
            projection = glm::ortho(a[0], a[1], a[2], a[3], a[4], a[5]);
            std::printf("ortho set\n");
        } else if (cmd == "point") {
            glm::dvec4 p = model * glm::dvec4(a[0], a[1], a[2], 1.0);
            std::printf("world (%.6f, %.6f, %.6f)\n", p.x, p.y, p.z);
        } else if (cmd == "project") {
            glm::dvec3 w = glm::project(glm::dvec3(a[0], a[1], a[2]), view * model, projection, viewport);
            std::printf("window (%.6f, %.6f, %.6f)\n", w.x, w.y, w.z);
        } else {
            glm::dvec3 o = glm::unProject(glm::dvec3(a[0], a[1], a[2]), view * model, projection, viewport);
            std::printf("object (%.6f, %.6f, %.6f)\n", o.x, o.y, o.z);
        }
    }
    return 0;
}
