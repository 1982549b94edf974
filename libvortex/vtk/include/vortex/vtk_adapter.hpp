#pragma once
// Conversion between particle sets (and results) and vtkPolyData, for users with VTK pipelines.
// The point arrays have the same names and layouts as in our .vtp files (vortex/vtp.hpp):
// circulation (3), radius (1), velocity (3), velocity_gradient (9, du_a/dx_b at 3a+b),
// vorticity (3). Every point also gets one vertex cell, so that ParaView draws it.
// Link with vortex::vtk.

#include <vtkPolyData.h>
#include <vtkSmartPointer.h>

#include "vortex/field.hpp"
#include "vortex/particles.hpp"

namespace vortex {

// Particles with circulation and radius, plus the field arrays when `field` is given.
vtkSmartPointer<vtkPolyData> to_vtk_polydata(const ParticleSet& particles,
                                             const VelocityField* field = nullptr);
// Points only, plus the field arrays when `field` is given.
vtkSmartPointer<vtkPolyData> to_vtk_polydata(PointsView points,
                                             const VelocityField* field = nullptr);

// A source set from the points and the 'circulation' and 'radius' arrays; throws
// std::invalid_argument when an array is missing or has the wrong number of components, and
// validates the values as validate_sources does.
ParticleSet particles_from_vtk(vtkPolyData* polydata);
// The point coordinates.
Points points_from_vtk(vtkPolyData* polydata);
// The 'velocity' array and, when present, 'velocity_gradient' (has_gradient tells); throws
// std::invalid_argument when 'velocity' is missing.
VelocityField field_from_vtk(vtkPolyData* polydata);

}  // namespace vortex
