#pragma once
// Closed meshes of spheres and ellipsoids.
//
// The geodesic icosphere of frequency f splits each face of the icosahedron into f^2 triangles and
// projects the points onto the unit sphere: 20 f^2 triangles, 10 f^2 + 2 vertices (f = 48 gives
// 46080 panels). An ellipsoid with semi-axes (a, b, c) along (x, y, z) is made from it by
//  - the affine map (x, y, z) -> (a x, b y, c z): panels of similar size on the faces, slivers at
//    the rim of a flat body;
//  - the equal-angle map (a spheroid, a = b): each point keeps its longitude and gets the geodetic
//    latitude whose isometric latitude equals the sphere point's latitude, a conformal map that
//    keeps the triangles' angles (near-equilateral panels, fewer across the rim).

#include "vortex/bodies/mesh.hpp"

namespace vortex::bodies {

enum class EllipsoidMap { Affine, EqualAngle };

// Unit icosphere of frequency f >= 1, triangles facing outwards.
TriangleMesh icosphere(int frequency);
// Sphere of radius r centred at the origin.
TriangleMesh sphere(int frequency, double radius);
// Ellipsoid with semi-axes a, b, c > 0. EqualAngle requires a == b (throws std::invalid_argument).
TriangleMesh ellipsoid(int frequency, double a, double b, double c,
                       EllipsoidMap map = EllipsoidMap::Affine);

// "affine" or "equal-angle".
EllipsoidMap parse_ellipsoid_map(const std::string& name);

}  // namespace vortex::bodies
