// ParticleSet and VelocityField <-> vtkPolyData, with the same arrays as our .vtp files.

#include "vortex/vtk_adapter.hpp"

#include <gtest/gtest.h>
#include <vtkCellArray.h>
#include <vtkDataArray.h>
#include <vtkFloatArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkXMLPolyDataReader.h>
#include <vtkXMLPolyDataWriter.h>

#include <filesystem>
#include <stdexcept>

#include "support/same_particles.hpp"
#include "vortex/generators.hpp"
#include "vortex/vtp.hpp"

using namespace vortex;

namespace {

VelocityField some_field(std::size_t n, bool gradient) {
  VelocityField field;
  field.resize(n, gradient);
  for (std::size_t i = 0; i < n; ++i) {
    for (int c = 0; c < 3; ++c) field.u[c][i] = 0.5 * i - c;
    if (gradient) {
      for (int c = 0; c < 9; ++c) field.du[c][i] = std::cos(1.0 * i * c);
    }
  }
  return field;
}

}  // namespace

TEST(VtkAdapter, ParticlesRoundTrip) {
  const ParticleSet p = random_cube(200, 31);
  const auto polydata = to_vtk_polydata(p);
  EXPECT_EQ(polydata->GetNumberOfPoints(), 200);
  EXPECT_EQ(polydata->GetVerts()->GetNumberOfCells(), 200);
  EXPECT_EQ(polydata->GetPointData()->GetNumberOfArrays(), 2);
  vortex::testing::expect_same_particles(particles_from_vtk(polydata), p);
  EXPECT_EQ(points_from_vtk(polydata).x, p.x);
}

TEST(VtkAdapter, FieldArraysMatchTheFileWriter) {
  const ParticleSet p = random_cube(50, 32);
  const VelocityField field = some_field(p.size(), true);
  const auto polydata = to_vtk_polydata(p, &field);
  vtkDataArray* vorticity = polydata->GetPointData()->GetArray("vorticity");
  ASSERT_NE(vorticity, nullptr);
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto w = field.vorticity(i);
    for (int c = 0; c < 3; ++c)
      EXPECT_EQ(vorticity->GetComponent(static_cast<vtkIdType>(i), c), w[c]);
  }
  const VelocityField back = field_from_vtk(polydata);
  ASSERT_TRUE(back.has_gradient);
  for (int c = 0; c < 3; ++c) EXPECT_EQ(back.u[c], field.u[c]);
  for (int c = 0; c < 9; ++c) EXPECT_EQ(back.du[c], field.du[c]);

  // Written by VTK's writer, the adapter's data set reads back with our reader, and the other way.
  const auto dir = std::filesystem::path(VORTEX_BINARY_DIR) / "test-files" / "vtk-adapter";
  std::filesystem::create_directories(dir);
  const std::string by_vtk = (dir / "by-vtk.vtp").string();
  vtkNew<vtkXMLPolyDataWriter> writer;
  writer->SetFileName(by_vtk.c_str());
  writer->SetInputData(polydata);
  writer->SetCompressorTypeToNone();
  writer->SetDataModeToBinary();
  ASSERT_EQ(writer->Write(), 1);
  const ParticleSet q = read_particles_vtp(by_vtk);
  EXPECT_EQ(q.x, p.x);
  EXPECT_EQ(q.gz, p.gz);
  EXPECT_EQ(q.sigma, p.sigma);
  const VelocityField read = read_field_vtp(by_vtk);
  for (int c = 0; c < 9; ++c) EXPECT_EQ(read.du[c], field.du[c]);

  writer->SetDataModeToAppended();
  writer->EncodeAppendedDataOn();
  ASSERT_EQ(writer->Write(), 1);
  EXPECT_EQ(read_particles_vtp(by_vtk).gy, p.gy);
  writer->SetDataModeToAscii();
  ASSERT_EQ(writer->Write(), 1);
  EXPECT_EQ(read_particles_vtp(by_vtk).sigma.size(), p.size());

  const std::string ours = (dir / "ours.vtp").string();
  write_vtp(ours, p, &field);
  vtkNew<vtkXMLPolyDataReader> reader;
  reader->SetFileName(ours.c_str());
  reader->Update();
  const ParticleSet r = particles_from_vtk(reader->GetOutput());
  EXPECT_EQ(r.gx, p.gx);
  EXPECT_EQ(field_from_vtk(reader->GetOutput()).du[4], field.du[4]);
}

TEST(VtkAdapter, PointsWithVelocityOnly) {
  const Points t = random_cube(20, 33).positions();
  const VelocityField field = some_field(t.size(), false);
  const auto polydata = to_vtk_polydata(PointsView(t), &field);
  EXPECT_EQ(polydata->GetPointData()->GetNumberOfArrays(), 1);
  EXPECT_FALSE(field_from_vtk(polydata).has_gradient);
  EXPECT_EQ(points_from_vtk(polydata).z, t.z);
}

TEST(VtkAdapter, OtherArrayTypesAreConverted) {
  vtkNew<vtkPolyData> polydata;
  vtkNew<vtkPoints> points;
  points->SetDataTypeToFloat();
  points->InsertNextPoint(1, 2, 3);
  polydata->SetPoints(points);
  vtkNew<vtkFloatArray> circulation;
  circulation->SetName("circulation");
  circulation->SetNumberOfComponents(3);
  circulation->InsertNextTuple3(0.5, 0.25, 0.125);
  vtkNew<vtkFloatArray> radius;
  radius->SetName("radius");
  radius->InsertNextValue(0.75f);
  polydata->GetPointData()->AddArray(circulation);
  polydata->GetPointData()->AddArray(radius);
  const ParticleSet p = particles_from_vtk(polydata);
  EXPECT_EQ(p.z[0], 3);
  EXPECT_EQ(p.gz[0], 0.125);
  EXPECT_EQ(p.sigma[0], 0.75);
}

TEST(VtkAdapter, BadInputIsRejected) {
  ParticleSet p = random_cube(5, 34);
  const auto polydata = to_vtk_polydata(p.positions());
  EXPECT_THROW(particles_from_vtk(polydata), std::invalid_argument);  // no circulation
  EXPECT_THROW(field_from_vtk(polydata), std::invalid_argument);      // no velocity
  VelocityField wrong = some_field(4, false);
  EXPECT_THROW(to_vtk_polydata(p, &wrong), std::invalid_argument);
  p.sigma[2] = -1;
  EXPECT_THROW(to_vtk_polydata(p), std::invalid_argument);
  const auto good = to_vtk_polydata(random_cube(5, 35));
  good->GetPointData()->GetArray("radius")->SetComponent(3, 0, 0.0);
  EXPECT_THROW(particles_from_vtk(good), std::invalid_argument);
  EXPECT_THROW(particles_from_vtk(nullptr), std::invalid_argument);
}
