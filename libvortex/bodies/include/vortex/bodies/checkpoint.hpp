#pragma once
// Checkpoints of a run with a body: the particles, the sheet, the step, the time and the impulse
// history that the forces need, in one binary file written atomically. The near-field blocks and
// the preconditioner are rebuilt from the mesh on restart; the sheet warm-starts the next solve,
// so a restarted run repeats the original to rounding.
//
// Format version 3 (host byte order): a 16-byte header "vortex-body-ck3", the case's identity
// (named text fields: the body, a digest of its mesh, Re, dt, the stream and the options that
// change the physics), the step, time, panel count, particles, sheet and impulses, the impulse
// and vorticity of the particles that left through the outflow, and last a 64-bit FNV-1a checksum
// of every byte before it. Version 2, the same without the outflow's part, is read too (none left
// then). A restart is refused unless the identity matches the run's field by field.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "vortex/bodies/mesh.hpp"
#include "vortex/particles.hpp"

namespace vortex::bodies {

constexpr int kCheckpointVersion = 3;

// One field of the case a checkpoint belongs to, as text, e.g. {"re", "300"}.
struct CheckpointField {
  std::string name, value;
  bool operator==(const CheckpointField& o) const { return name == o.name && value == o.value; }
};
using CheckpointIdentity = std::vector<CheckpointField>;

struct BodyCheckpoint {
  long step = 0;
  double time = 0;
  std::size_t panels = 0;  // must match the surface on restart
  CheckpointIdentity identity;
  ParticleSet particles;
  std::vector<double> gamma;           // 2 per panel
  std::array<double, 3> impulse{};     // at `time`
  std::array<double, 3> impulse_t0{};  // at t = 0+
  // What the particles that left through the outflow took (BodyFlow::outflow_impulse ...).
  std::array<double, 3> outflow_impulse{}, outflow_vorticity{};
};

void write_checkpoint(const std::string& path, const BodyCheckpoint& c);
// Throws vortex::FileError naming the file and what is wrong: a format version other than 2 or 3, a
// checksum mismatch, counts that the file's size cannot hold, a negative step, a time that is not
// finite and >= 0, non-finite impulses, particles or sheet.
BodyCheckpoint read_checkpoint(const std::string& path);
// Throws vortex::FileError naming `path`, the first field that differs and both values, e.g.
// "checkpoint was written with re = 100, this run has re = 300".
void check_identity(const std::string& path, const BodyCheckpoint& c,
                    const CheckpointIdentity& expected);

// 64-bit FNV-1a of `bytes` bytes, continuing from `hash`.
std::uint64_t fnv1a(const void* data, std::size_t bytes,
                    std::uint64_t hash = 0xcbf29ce484222325ull);
// The FNV-1a of a mesh's vertex coordinates and triangles, as 16 hex digits.
std::string mesh_digest(const TriangleMesh& mesh);
// The shortest decimal text that reads back as `v` exactly.
std::string exact_text(double v);

}  // namespace vortex::bodies
