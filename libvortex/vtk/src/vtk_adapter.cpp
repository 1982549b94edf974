#include "vortex/vtk_adapter.hpp"

#include <vtkCellArray.h>
#include <vtkDataArray.h>
#include <vtkDoubleArray.h>
#include <vtkIdTypeArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>

#include <stdexcept>
#include <string>

#include "vortex/vtp.hpp"

namespace vortex {

namespace {

vtkSmartPointer<vtkDoubleArray> make_array(const char* name, int components, vtkIdType n) {
  auto array = vtkSmartPointer<vtkDoubleArray>::New();
  array->SetName(name);
  array->SetNumberOfComponents(components);
  array->SetNumberOfTuples(n);
  return array;
}

vtkSmartPointer<vtkPolyData> points_polydata(PointsView p) {
  const auto n = static_cast<vtkIdType>(p.size());
  auto coordinates = vtkSmartPointer<vtkDoubleArray>::New();
  coordinates->SetNumberOfComponents(3);
  coordinates->SetNumberOfTuples(n);
  for (vtkIdType i = 0; i < n; ++i) {
    const double xyz[3] = {p.x[i], p.y[i], p.z[i]};
    coordinates->SetTypedTuple(i, xyz);
  }
  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetData(coordinates);

  // One vertex cell per point: offsets 0..n, connectivity 0..n-1.
  auto offsets = vtkSmartPointer<vtkIdTypeArray>::New();
  auto connectivity = vtkSmartPointer<vtkIdTypeArray>::New();
  offsets->SetNumberOfValues(n + 1);
  connectivity->SetNumberOfValues(n);
  for (vtkIdType i = 0; i < n; ++i) {
    offsets->SetValue(i, i);
    connectivity->SetValue(i, i);
  }
  offsets->SetValue(n, n);
  auto verts = vtkSmartPointer<vtkCellArray>::New();
  verts->SetData(offsets, connectivity);

  auto polydata = vtkSmartPointer<vtkPolyData>::New();
  polydata->SetPoints(points);
  polydata->SetVerts(verts);
  return polydata;
}

void add_field(vtkPolyData* polydata, const VelocityField& field) {
  const auto n = polydata->GetNumberOfPoints();
  if (static_cast<vtkIdType>(field.size()) != n) {
    throw std::invalid_argument("to_vtk_polydata: " + std::to_string(field.size()) +
                                " results for " + std::to_string(n) + " points");
  }
  auto velocity = make_array(vtp_arrays::kVelocity, 3, n);
  for (vtkIdType i = 0; i < n; ++i) {
    for (int c = 0; c < 3; ++c) velocity->SetTypedComponent(i, c, field.u[c][i]);
  }
  polydata->GetPointData()->AddArray(velocity);
  if (!field.has_gradient) return;
  auto gradient = make_array(vtp_arrays::kVelocityGradient, 9, n);
  auto vorticity = make_array(vtp_arrays::kVorticity, 3, n);
  for (vtkIdType i = 0; i < n; ++i) {
    for (int c = 0; c < 9; ++c) gradient->SetTypedComponent(i, c, field.du[c][i]);
    const auto w = field.vorticity(static_cast<std::size_t>(i));
    for (int c = 0; c < 3; ++c) vorticity->SetTypedComponent(i, c, w[c]);
  }
  polydata->GetPointData()->AddArray(gradient);
  polydata->GetPointData()->AddArray(vorticity);
}

vtkDataArray* require_array(vtkPolyData* polydata, const char* name, int components) {
  vtkDataArray* array = polydata->GetPointData()->GetArray(name);
  if (!array)
    throw std::invalid_argument(std::string("vtkPolyData has no point array '") + name + "'");
  if (array->GetNumberOfComponents() != components) {
    throw std::invalid_argument(std::string("vtkPolyData point array '") + name + "' has " +
                                std::to_string(array->GetNumberOfComponents()) +
                                " components, expected " + std::to_string(components));
  }
  if (array->GetNumberOfTuples() != polydata->GetNumberOfPoints()) {
    throw std::invalid_argument(std::string("vtkPolyData point array '") + name + "' has " +
                                std::to_string(array->GetNumberOfTuples()) + " tuples for " +
                                std::to_string(polydata->GetNumberOfPoints()) + " points");
  }
  return array;
}

}  // namespace

vtkSmartPointer<vtkPolyData> to_vtk_polydata(const ParticleSet& particles,
                                             const VelocityField* field) {
  validate_sources(particles);
  auto polydata = points_polydata(PointsView(particles));
  const auto n = static_cast<vtkIdType>(particles.size());
  auto circulation = make_array(vtp_arrays::kCirculation, 3, n);
  auto radius = make_array(vtp_arrays::kRadius, 1, n);
  for (vtkIdType i = 0; i < n; ++i) {
    circulation->SetTypedComponent(i, 0, particles.gx[i]);
    circulation->SetTypedComponent(i, 1, particles.gy[i]);
    circulation->SetTypedComponent(i, 2, particles.gz[i]);
    radius->SetTypedComponent(i, 0, particles.sigma[i]);
  }
  polydata->GetPointData()->AddArray(circulation);
  polydata->GetPointData()->AddArray(radius);
  if (field) add_field(polydata, *field);
  return polydata;
}

vtkSmartPointer<vtkPolyData> to_vtk_polydata(PointsView points, const VelocityField* field) {
  auto polydata = points_polydata(points);
  if (field) add_field(polydata, *field);
  return polydata;
}

Points points_from_vtk(vtkPolyData* polydata) {
  if (!polydata) throw std::invalid_argument("points_from_vtk: null vtkPolyData");
  Points p;
  const vtkIdType n = polydata->GetNumberOfPoints();
  p.resize(static_cast<std::size_t>(n));
  for (vtkIdType i = 0; i < n; ++i) {
    double xyz[3];
    polydata->GetPoint(i, xyz);
    p.x[i] = xyz[0];
    p.y[i] = xyz[1];
    p.z[i] = xyz[2];
  }
  return p;
}

ParticleSet particles_from_vtk(vtkPolyData* polydata) {
  Points points = points_from_vtk(polydata);
  vtkDataArray* circulation = require_array(polydata, vtp_arrays::kCirculation, 3);
  vtkDataArray* radius = require_array(polydata, vtp_arrays::kRadius, 1);
  ParticleSet p;
  p.x = std::move(points.x);
  p.y = std::move(points.y);
  p.z = std::move(points.z);
  const std::size_t n = p.x.size();
  p.gx.resize(n);
  p.gy.resize(n);
  p.gz.resize(n);
  p.sigma.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto id = static_cast<vtkIdType>(i);
    p.gx[i] = circulation->GetComponent(id, 0);
    p.gy[i] = circulation->GetComponent(id, 1);
    p.gz[i] = circulation->GetComponent(id, 2);
    p.sigma[i] = radius->GetComponent(id, 0);
  }
  validate_sources(p);
  return p;
}

VelocityField field_from_vtk(vtkPolyData* polydata) {
  if (!polydata) throw std::invalid_argument("field_from_vtk: null vtkPolyData");
  vtkDataArray* velocity = require_array(polydata, vtp_arrays::kVelocity, 3);
  vtkDataArray* gradient = polydata->GetPointData()->GetArray(vtp_arrays::kVelocityGradient);
  if (gradient) gradient = require_array(polydata, vtp_arrays::kVelocityGradient, 9);
  VelocityField field;
  const auto n = static_cast<std::size_t>(polydata->GetNumberOfPoints());
  field.resize(n, gradient != nullptr);
  for (std::size_t i = 0; i < n; ++i) {
    const auto id = static_cast<vtkIdType>(i);
    for (int c = 0; c < 3; ++c) field.u[c][i] = velocity->GetComponent(id, c);
    if (gradient) {
      for (int c = 0; c < 9; ++c) field.du[c][i] = gradient->GetComponent(id, c);
    }
  }
  return field;
}

}  // namespace vortex
