#include <string>
#include <vector>

struct Shape {
    std::string name;
    double area() const { return 0; }
};

double total(const std::vector<Shape>& shapes) {
    double sum = 0;
    for (const auto& s : shapes) sum += s.area;
    return sum;
}

int count(const std::vector<Shape>& shapes) {
    std::string n = shapes.size();
    return n;
}
