// Every kind of file we write, read back by VTK's own XML readers: the values must be exact.

#include <gtest/gtest.h>
#include <vtkCellArray.h>
#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkStringOutputWindow.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLPolyDataReader.h>
#include <vtkXMLUtilities.h>

#include <filesystem>
#include <string>

#include "support/scratch_dir.hpp"
#include "vortex/generators.hpp"
#include "vortex/pvd.hpp"
#include "vortex/vtp.hpp"

using namespace vortex;

namespace {

class VtkReaderTest : public vortex::testing::ScratchDirTest {
 protected:
  VtkReaderTest() : ScratchDirTest("vtk-reader") {}
  void SetUp() override {
    ScratchDirTest::SetUp();
    // Collect VTK's errors and warnings instead of printing them, so a test can require none.
    vtkOutputWindow::SetInstance(messages_);
  }
  void TearDown() override {
    EXPECT_EQ(messages_->GetOutput(), "") << "VTK reported problems";
    vtkOutputWindow::SetInstance(nullptr);
  }
  vtkNew<vtkStringOutputWindow> messages_;
};

vtkSmartPointer<vtkPolyData> read_with_vtk(const std::string& file) {
  vtkNew<vtkXMLPolyDataReader> reader;
  reader->SetFileName(file.c_str());
  reader->Update();
  EXPECT_EQ(reader->GetErrorCode(), 0u) << file;
  vtkSmartPointer<vtkPolyData> output = reader->GetOutput();
  return output;
}

// The array, checked for its component count and tuple count.
vtkDataArray* array(vtkPolyData* polydata, const char* name, int components) {
  vtkDataArray* a = polydata->GetPointData()->GetArray(name);
  EXPECT_NE(a, nullptr) << name;
  if (!a) return nullptr;
  EXPECT_EQ(a->GetNumberOfComponents(), components) << name;
  EXPECT_EQ(a->GetNumberOfTuples(), polydata->GetNumberOfPoints()) << name;
  EXPECT_EQ(a->GetDataType(), VTK_DOUBLE) << name;
  return a;
}

void expect_points_and_verts(vtkPolyData* polydata, PointsView p) {
  ASSERT_EQ(polydata->GetNumberOfPoints(), static_cast<vtkIdType>(p.size()));
  for (vtkIdType i = 0; i < polydata->GetNumberOfPoints(); ++i) {
    double xyz[3];
    polydata->GetPoint(i, xyz);
    EXPECT_EQ(xyz[0], p.x[i]);
    EXPECT_EQ(xyz[1], p.y[i]);
    EXPECT_EQ(xyz[2], p.z[i]);
  }
  // One vertex cell per point, cell i holding point i.
  vtkCellArray* verts = polydata->GetVerts();
  ASSERT_EQ(verts->GetNumberOfCells(), polydata->GetNumberOfPoints());
  for (vtkIdType i = 0; i < verts->GetNumberOfCells(); ++i) {
    EXPECT_EQ(verts->GetCellSize(i), 1);
  }
  EXPECT_EQ(polydata->GetNumberOfLines() + polydata->GetNumberOfPolys(), 0);
}

void expect_particles(vtkPolyData* polydata, const ParticleSet& p) {
  expect_points_and_verts(polydata, p);
  vtkDataArray* circulation = array(polydata, "circulation", 3);
  vtkDataArray* radius = array(polydata, "radius", 1);
  ASSERT_TRUE(circulation && radius);
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto id = static_cast<vtkIdType>(i);
    EXPECT_EQ(circulation->GetComponent(id, 0), p.gx[i]);
    EXPECT_EQ(circulation->GetComponent(id, 1), p.gy[i]);
    EXPECT_EQ(circulation->GetComponent(id, 2), p.gz[i]);
    EXPECT_EQ(radius->GetComponent(id, 0), p.sigma[i]);
  }
}

void expect_field(vtkPolyData* polydata, const VelocityField& field) {
  vtkDataArray* velocity = array(polydata, "velocity", 3);
  ASSERT_NE(velocity, nullptr);
  for (std::size_t i = 0; i < field.size(); ++i) {
    for (int c = 0; c < 3; ++c) {
      EXPECT_EQ(velocity->GetComponent(static_cast<vtkIdType>(i), c), field.u[c][i]);
    }
  }
  if (!field.has_gradient) {
    EXPECT_EQ(polydata->GetPointData()->GetArray("velocity_gradient"), nullptr);
    EXPECT_EQ(polydata->GetPointData()->GetArray("vorticity"), nullptr);
    return;
  }
  vtkDataArray* gradient = array(polydata, "velocity_gradient", 9);
  vtkDataArray* vorticity = array(polydata, "vorticity", 3);
  ASSERT_TRUE(gradient && vorticity);
  for (std::size_t i = 0; i < field.size(); ++i) {
    const auto id = static_cast<vtkIdType>(i);
    for (int c = 0; c < 9; ++c) EXPECT_EQ(gradient->GetComponent(id, c), field.du[c][i]);
    const auto w = field.vorticity(i);
    for (int c = 0; c < 3; ++c) EXPECT_EQ(vorticity->GetComponent(id, c), w[c]);
  }
}

VelocityField some_field(std::size_t n, bool gradient) {
  VelocityField field;
  field.resize(n, gradient);
  for (std::size_t i = 0; i < n; ++i) {
    for (int c = 0; c < 3; ++c) field.u[c][i] = std::exp(-0.01 * i) * (c + 1) / 7.0;
    if (gradient) {
      for (int c = 0; c < 9; ++c) field.du[c][i] = std::sin(0.3 * i + c) / 3;
    }
  }
  return field;
}

}  // namespace

TEST_F(VtkReaderTest, ParticlesWithoutField) {
  const ParticleSet p = random_cube(1000, 21);
  write_vtp(path("particles.vtp"), p);
  const auto polydata = read_with_vtk(path("particles.vtp"));
  expect_particles(polydata, p);
  EXPECT_EQ(polydata->GetPointData()->GetNumberOfArrays(), 2);
}

TEST_F(VtkReaderTest, ParticlesWithVelocityAndGradient) {
  const ParticleSet p = random_cube(777, 22);
  const VelocityField field = some_field(p.size(), true);
  write_vtp(path("field.vtp"), p, &field);
  const auto polydata = read_with_vtk(path("field.vtp"));
  expect_particles(polydata, p);
  expect_field(polydata, field);
  EXPECT_EQ(polydata->GetPointData()->GetNumberOfArrays(), 5);
}

TEST_F(VtkReaderTest, PointsWithVelocityOnly) {
  const ParticleSet p = random_cube(100, 23);
  const Points targets = p.positions();
  const VelocityField field = some_field(targets.size(), false);
  write_vtp(path("points.vtp"), targets, &field);
  const auto polydata = read_with_vtk(path("points.vtp"));
  expect_points_and_verts(polydata, targets);
  expect_field(polydata, field);
  EXPECT_EQ(polydata->GetPointData()->GetNumberOfArrays(), 1);
}

TEST_F(VtkReaderTest, EmptyParticleSet) {
  write_vtp(path("empty.vtp"), ParticleSet{});
  EXPECT_EQ(read_with_vtk(path("empty.vtp"))->GetNumberOfPoints(), 0);
}

TEST_F(VtkReaderTest, CollectionOfSteps) {
  std::filesystem::create_directories(dir_ / "steps");
  PvdWriter series(path("series.pvd"));
  ParticleSet p = random_cube(64, 24);
  std::vector<ParticleSet> written;
  for (int step = 0; step < 3; ++step) {
    for (auto& x : p.x) x += 0.5;
    const VelocityField field = some_field(p.size(), step % 2 == 0);
    const std::string file = path("steps/s" + std::to_string(step) + ".vtp");
    write_vtp(file, p, &field);
    series.add(0.25 * step, file);
    written.push_back(p);
  }

  // VTK's XML parser reads the collection; each data set is read from the collection's folder.
  vtkSmartPointer<vtkXMLDataElement> root;
  root.TakeReference(vtkXMLUtilities::ReadElementFromFile(path("series.pvd").c_str()));
  ASSERT_NE(root, nullptr);
  EXPECT_STREQ(root->GetAttribute("type"), "Collection");
  vtkXMLDataElement* collection = root->FindNestedElementWithName("Collection");
  ASSERT_NE(collection, nullptr);
  ASSERT_EQ(collection->GetNumberOfNestedElements(), 3);
  for (int step = 0; step < 3; ++step) {
    vtkXMLDataElement* dataset = collection->GetNestedElement(step);
    EXPECT_STREQ(dataset->GetName(), "DataSet");
    double time = -1;
    ASSERT_TRUE(dataset->GetScalarAttribute("timestep", time));
    EXPECT_EQ(time, 0.25 * step);
    const std::string file = dataset->GetAttribute("file");
    EXPECT_EQ(file, "steps/s" + std::to_string(step) + ".vtp");
    const auto polydata = read_with_vtk((dir_ / file).string());
    expect_particles(polydata, written[static_cast<std::size_t>(step)]);
    expect_field(polydata, some_field(p.size(), step % 2 == 0));
  }
}
