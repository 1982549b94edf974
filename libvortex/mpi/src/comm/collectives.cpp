#include "comm/collectives.hpp"

#include <cstdio>
#include <cstdlib>
#include <new>

#include "vortex/out_of_memory.hpp"

namespace vortex::mpi::detail {

void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string("vortex::mpi: ") + call +
                           " failed: " + std::string(text, length));
}

Comm::Comm(MPI_Comm comm) : comm_(comm) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized)
    throw std::logic_error("vortex::mpi: MPI is not initialized (call MPI_Init first)");
  if (comm == MPI_COMM_NULL) throw std::invalid_argument("vortex::mpi: the communicator is null");
  // Errors come back as codes, which check() turns into exceptions, rather than aborting the job.
  check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
}

std::vector<int> in_words(const std::vector<long long>& counts, int per_item) {
  std::vector<int> words(counts.size());
  for (std::size_t r = 0; r < counts.size(); ++r) {
    const long long w = counts[r] * per_item;
    if (w > 2147483647LL)
      throw std::length_error(
          "vortex::mpi: an exchange of more than 2^31 - 1 words between two ranks, or into one "
          "(spread the particles over more ranks)");
    words[r] = static_cast<int>(w);
  }
  return words;
}

void abort_job(const Comm& comm, const char* stage, const char* what) {
  std::fprintf(stderr,
               "vortex::mpi: rank %d failed in %s, whose collectives the other ranks are waiting "
               "in: %s. Ending the job.\n",
               comm.rank(), stage, what);
  std::fflush(stderr);
  MPI_Abort(comm.get(), 1);
  std::abort();  // MPI_Abort does not return
}

namespace {

enum Kind : int { kInvalidArgument = 1, kOverflow = 2, kOutOfMemory = 3, kOther = 4 };

// The kind and text of an exception.
Kind describe(std::exception_ptr error, std::string& what) {
  try {
    std::rethrow_exception(error);
  } catch (const OutOfMemory& e) {
    what = e.what();
    return kOutOfMemory;
  } catch (const std::bad_alloc&) {
    what = "out of host memory";
    return kOutOfMemory;
  } catch (const std::invalid_argument& e) {
    what = e.what();
    return kInvalidArgument;
  } catch (const std::overflow_error& e) {
    what = e.what();
    return kOverflow;
  } catch (const std::exception& e) {
    what = e.what();
    return kOther;
  } catch (...) {
    what = "an exception that is not a std::exception";
    return kOther;
  }
}

}  // namespace

void Comm::agree(std::exception_ptr error) const {
  int first = error ? rank_ : size_;
  allreduce(&first, 1, MPI_MIN);
  if (first == size_) return;
  std::string what;
  int kind = 0;
  if (rank_ == first) kind = describe(error, what);
  int length = static_cast<int>(what.size());
  check(MPI_Bcast(&kind, 1, MPI_INT, first, comm_), "MPI_Bcast");
  check(MPI_Bcast(&length, 1, MPI_INT, first, comm_), "MPI_Bcast");
  what.resize(length);
  check(MPI_Bcast(what.data(), length, MPI_CHAR, first, comm_), "MPI_Bcast");
  const std::string message =
      rank_ == first ? what : "rank " + std::to_string(first) + " failed: " + what;
  if (rank_ == first) std::rethrow_exception(error);
  switch (kind) {
    case kInvalidArgument:
      throw std::invalid_argument(message);
    case kOverflow:
      throw std::overflow_error(message);
    case kOutOfMemory:
      throw OutOfMemory(message);
    default:
      throw std::runtime_error(message);
  }
}

}  // namespace vortex::mpi::detail
