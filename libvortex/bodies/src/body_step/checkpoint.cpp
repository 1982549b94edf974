#include "vortex/bodies/checkpoint.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "vortex/file_io.hpp"

namespace vortex::bodies {

namespace {

// "vortex-body-ck" and the version in the last two bytes, as version 1 wrote it.
constexpr char kPrefix[] = "vortex-body-ck";
constexpr std::size_t kPrefixBytes = sizeof kPrefix - 1;
constexpr std::size_t kHeaderBytes = 16;
constexpr std::size_t kChecksumBytes = 8;
constexpr std::size_t kParticleArrays = 7;

class Reader {
 public:
  Reader(std::string path, const std::string& data, std::size_t begin, std::size_t end)
      : path_(std::move(path)), data_(data), pos_(begin), end_(end) {}
  template <class T>
  T get() {
    T v;
    read(&v, sizeof v);
    return v;
  }
  void array(std::vector<double>& v, std::size_t n) {
    if (n > left() / sizeof(double)) fail("truncated");
    v.resize(n);
    read(v.data(), n * sizeof(double));
  }
  std::string text() {
    const auto n = get<std::uint32_t>();
    if (n > left()) fail("truncated");
    std::string s(data_.data() + pos_, n);
    pos_ += n;
    return s;
  }
  void read(void* out, std::size_t bytes) {
    if (bytes > left()) fail("truncated");
    std::memcpy(out, data_.data() + pos_, bytes);
    pos_ += bytes;
  }
  std::size_t left() const { return end_ - pos_; }
  [[noreturn]] void fail(const std::string& what) const {
    throw FileError(path_ + ": checkpoint " + what);
  }

 private:
  std::string path_;
  const std::string& data_;
  std::size_t pos_, end_;
};

bool finite(const std::array<double, 3>& v) {
  return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]);
}

std::string text3(const std::array<double, 3>& v) {
  return "(" + exact_text(v[0]) + ", " + exact_text(v[1]) + ", " + exact_text(v[2]) + ")";
}

}  // namespace

std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t hash) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) {
    hash ^= p[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::string mesh_digest(const TriangleMesh& mesh) {
  std::uint64_t h = fnv1a(mesh.vertices.data(), mesh.vertices.size() * sizeof mesh.vertices[0]);
  h = fnv1a(mesh.triangles.data(), mesh.triangles.size() * sizeof mesh.triangles[0], h);
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

std::string exact_text(double v) {
  char text[32];
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, v);
    if (std::strtod(text, nullptr) == v || std::isnan(v)) break;
  }
  return text;
}

void write_checkpoint(const std::string& path, const BodyCheckpoint& c) {
  AtomicFile f(path);
  std::uint64_t hash = fnv1a(nullptr, 0);
  auto put_bytes = [&](const void* p, std::size_t n) {
    f.write(p, n);
    hash = fnv1a(p, n, hash);
  };
  auto put = [&](const auto& v) { put_bytes(&v, sizeof v); };
  auto put_array = [&](const std::vector<double>& v) { put_bytes(v.data(), v.size() * 8); };
  auto put_text = [&](const std::string& s) {
    put(static_cast<std::uint32_t>(s.size()));
    put_bytes(s.data(), s.size());
  };
  char header[kHeaderBytes] = {};
  std::snprintf(header, sizeof header, "%s%d", kPrefix, kCheckpointVersion);
  put_bytes(header, sizeof header);
  put(static_cast<std::uint64_t>(c.identity.size()));
  for (const CheckpointField& f : c.identity) {
    put_text(f.name);
    put_text(f.value);
  }
  put(static_cast<std::int64_t>(c.step));
  put(c.time);
  put(static_cast<std::uint64_t>(c.panels));
  put(static_cast<std::uint64_t>(c.particles.size()));
  const ParticleSet& p = c.particles;
  for (const auto* a : {&p.x, &p.y, &p.z, &p.gx, &p.gy, &p.gz, &p.sigma}) put_array(*a);
  put(static_cast<std::uint64_t>(c.gamma.size()));
  put_array(c.gamma);
  put(c.impulse);
  put(c.impulse_t0);
  put(c.outflow_impulse);
  put(c.outflow_vorticity);
  f.write(&hash, sizeof hash);
  f.commit();
}

BodyCheckpoint read_checkpoint(const std::string& path) {
  const std::string data = read_file(path);
  Reader r(path, data, 0, data.size());
  if (data.size() < kHeaderBytes || data.compare(0, kPrefixBytes, kPrefix) != 0)
    r.fail("has the wrong header (not a vortex-body checkpoint)");
  // The version first, so that an older file is named as such rather than as damaged.
  const std::string version_text(data.data() + kPrefixBytes,
                                 strnlen(data.data() + kPrefixBytes, kHeaderBytes - kPrefixBytes));
  const bool version2 = version_text == "2";  // without the outflow's part
  if (version_text != std::to_string(kCheckpointVersion) && !version2)
    r.fail("is format version " + version_text + "; this build reads versions 2 and " +
           std::to_string(kCheckpointVersion) +
           " only (with the case's identity and a checksum): restart the run from t = 0 or with "
           "the build that wrote it");
  if (data.size() < kHeaderBytes + kChecksumBytes) r.fail("truncated");
  const std::size_t end = data.size() - kChecksumBytes;
  std::uint64_t stored;
  std::memcpy(&stored, data.data() + end, sizeof stored);
  if (fnv1a(data.data(), end) != stored)
    r.fail("checksum mismatch: the file is damaged or truncated");

  Reader p(path, data, kHeaderBytes, end);
  BodyCheckpoint c;
  const auto fields = p.get<std::uint64_t>();
  // Each field takes at least its two lengths.
  if (fields > p.left() / 8) p.fail("claims more identity fields than the file holds");
  for (std::uint64_t k = 0; k < fields; ++k) {
    CheckpointField f;
    f.name = p.text();
    f.value = p.text();
    c.identity.push_back(std::move(f));
  }
  const auto step = p.get<std::int64_t>();
  c.time = p.get<double>();
  c.panels = p.get<std::uint64_t>();
  const auto n = p.get<std::uint64_t>();
  if (n > p.left() / (kParticleArrays * sizeof(double)))
    p.fail("claims " + std::to_string(n) + " particles, more than its " +
           std::to_string(data.size()) + " bytes hold");
  ParticleSet& ps = c.particles;
  for (auto* a : {&ps.x, &ps.y, &ps.z, &ps.gx, &ps.gy, &ps.gz, &ps.sigma}) p.array(*a, n);
  p.array(c.gamma, p.get<std::uint64_t>());
  c.impulse = p.get<std::array<double, 3>>();
  c.impulse_t0 = p.get<std::array<double, 3>>();
  if (!version2) {
    c.outflow_impulse = p.get<std::array<double, 3>>();
    c.outflow_vorticity = p.get<std::array<double, 3>>();
  }
  if (p.left() != 0) p.fail("has trailing data");

  if (step < 0) p.fail("has a negative step " + std::to_string(step));
  c.step = static_cast<long>(step);
  if (!std::isfinite(c.time) || c.time < 0)
    p.fail("has time " + exact_text(c.time) + ", not a finite time >= 0");
  if (!finite(c.impulse)) p.fail("has a non-finite impulse " + text3(c.impulse));
  if (!finite(c.impulse_t0)) p.fail("has a non-finite impulse at t = 0+ " + text3(c.impulse_t0));
  if (!finite(c.outflow_impulse) || !finite(c.outflow_vorticity))
    p.fail("has a non-finite impulse or vorticity of the outflow " + text3(c.outflow_impulse) +
           ", " + text3(c.outflow_vorticity));
  if (c.gamma.size() != 2 * c.panels) p.fail("sheet size does not match its panel count");
  for (std::size_t i = 0; i < c.gamma.size(); ++i)
    if (!std::isfinite(c.gamma[i]))
      p.fail("sheet value " + std::to_string(i) + " is " + exact_text(c.gamma[i]));
  try {
    validate_sources(c.particles);
  } catch (const std::invalid_argument& e) {
    p.fail(std::string("particles: ") + e.what());
  }
  return c;
}

void check_identity(const std::string& path, const BodyCheckpoint& c,
                    const CheckpointIdentity& expected) {
  auto find = [](const CheckpointIdentity& id, const std::string& name) -> const std::string* {
    for (const CheckpointField& f : id)
      if (f.name == name) return &f.value;
    return nullptr;
  };
  for (const CheckpointField& f : expected) {
    const std::string* written = find(c.identity, f.name);
    if (!written)
      throw FileError(path + ": checkpoint has no " + f.name + ", this run has " + f.name + " = " +
                      f.value);
    if (*written != f.value)
      throw FileError(path + ": checkpoint was written with " + f.name + " = " + *written +
                      ", this run has " + f.name + " = " + f.value);
  }
  for (const CheckpointField& f : c.identity)
    if (!find(expected, f.name))
      throw FileError(path + ": checkpoint was written with " + f.name + " = " + f.value +
                      ", this run has no " + f.name);
}

}  // namespace vortex::bodies
