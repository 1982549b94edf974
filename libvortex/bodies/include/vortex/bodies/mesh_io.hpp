#pragma once
// Reading a user's surface mesh and writing a surface with per-panel data for ParaView.
//
// Read: STL (ascii or binary, told apart by the size: binary where it is 84 + 50 x the count at
// bytes 80-83, whatever the header says; vertices with equal coordinates are merged) and VTK XML
// PolyData (.vtp) of one Piece with Points and Polys stored as ascii DataArrays (triangles only),
// as write_surface_vtp writes them: no points, a cell that is not a triangle, a point index out of
// range or counts unlike the Piece's are errors. The reader does not check closedness or
// orientation: make_surface does. Errors throw vortex::FileError naming the file and the problem.

#include <string>
#include <vector>

#include "vortex/bodies/mesh.hpp"
#include "vortex/bodies/surface.hpp"

namespace vortex::bodies {

// By extension: .stl or .vtp.
TriangleMesh read_mesh(const std::string& path);
TriangleMesh read_stl(const std::string& path);
TriangleMesh read_mesh_vtp(const std::string& path);

// A per-panel array: `components` values per panel, panel-major.
struct CellArray {
  std::string name;
  int components = 1;
  std::vector<double> values;
};

// The mesh as PolyData (Points, triangle Polys) with the given cell data, atomically.
void write_surface_vtp(const std::string& path, const TriangleMesh& mesh,
                       const std::vector<CellArray>& cell_data = {});

}  // namespace vortex::bodies
