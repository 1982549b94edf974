#include "vortex/bodies/checkpoint.hpp"

#include <cstdint>
#include <cstring>

#include "vortex/file_io.hpp"

namespace vortex::bodies {

namespace {

constexpr char kMagic[16] = "vortex-body-ck1";

class Reader {
 public:
  Reader(std::string path, std::string data) : path_(std::move(path)), data_(std::move(data)) {}
  template <class T>
  T get() {
    T v;
    read(&v, sizeof v);
    return v;
  }
  void array(std::vector<double>& v, std::size_t n) {
    if (n > (data_.size() - pos_) / sizeof(double)) fail("truncated");
    v.resize(n);
    read(v.data(), n * sizeof(double));
  }
  void read(void* out, std::size_t bytes) {
    if (bytes > data_.size() - pos_) fail("truncated");
    std::memcpy(out, data_.data() + pos_, bytes);
    pos_ += bytes;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw FileError(path_ + ": checkpoint " + what);
  }
  bool done() const { return pos_ == data_.size(); }

 private:
  std::string path_, data_;
  std::size_t pos_ = 0;
};

}  // namespace

void write_checkpoint(const std::string& path, const BodyCheckpoint& c) {
  AtomicFile f(path);
  auto put = [&](const auto& v) { f.write(&v, sizeof v); };
  auto put_array = [&](const std::vector<double>& v) { f.write(v.data(), v.size() * 8); };
  f.write(kMagic, sizeof kMagic);
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
  f.commit();
}

BodyCheckpoint read_checkpoint(const std::string& path) {
  Reader r(path, read_file(path));
  char magic[16];
  r.read(magic, sizeof magic);
  if (std::memcmp(magic, kMagic, sizeof magic) != 0) r.fail("has the wrong header");
  BodyCheckpoint c;
  c.step = static_cast<long>(r.get<std::int64_t>());
  c.time = r.get<double>();
  c.panels = r.get<std::uint64_t>();
  const auto n = r.get<std::uint64_t>();
  ParticleSet& p = c.particles;
  for (auto* a : {&p.x, &p.y, &p.z, &p.gx, &p.gy, &p.gz, &p.sigma}) r.array(*a, n);
  r.array(c.gamma, r.get<std::uint64_t>());
  c.impulse = r.get<std::array<double, 3>>();
  c.impulse_t0 = r.get<std::array<double, 3>>();
  if (!r.done()) r.fail("has trailing data");
  if (c.gamma.size() != 2 * c.panels) r.fail("sheet size does not match its panel count");
  try {
    validate_sources(c.particles);
  } catch (const std::invalid_argument& e) {
    r.fail(std::string("particles: ") + e.what());
  }
  return c;
}

}  // namespace vortex::bodies
