#pragma once
// A plain 3-vector for the body code, usable in host and CUDA device functions alike.

#include <cmath>

#include "vortex/math/hd.hpp"

namespace vortex::bodies {

struct Vec3 {
  double x = 0, y = 0, z = 0;
};

VORTEX_HD Vec3 operator+(const Vec3& a, const Vec3& b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
VORTEX_HD Vec3 operator-(const Vec3& a, const Vec3& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
VORTEX_HD Vec3 operator-(const Vec3& a) {
  return {-a.x, -a.y, -a.z};
}
VORTEX_HD Vec3 operator*(double s, const Vec3& a) {
  return {s * a.x, s * a.y, s * a.z};
}
VORTEX_HD Vec3& operator+=(Vec3& a, const Vec3& b) {
  a.x += b.x;
  a.y += b.y;
  a.z += b.z;
  return a;
}
VORTEX_HD double dot(const Vec3& a, const Vec3& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
VORTEX_HD Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
VORTEX_HD double norm(const Vec3& a) {
  return sqrt(dot(a, a));
}
VORTEX_HD Vec3 normalized(const Vec3& a) {
  return (1.0 / norm(a)) * a;
}

}  // namespace vortex::bodies
