#pragma once
// Typed wrappers of the MPI collectives the distributed solver uses, and the agreement on errors:
// a rank whose local work throws does not leave the others waiting in the next collective; every
// rank throws the first failing rank's error instead.

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

namespace vortex::mpi::detail {

template <class T>
MPI_Datatype datatype();
template <>
inline MPI_Datatype datatype<double>() {
  return MPI_DOUBLE;
}
template <>
inline MPI_Datatype datatype<long long>() {
  return MPI_LONG_LONG;
}
template <>
inline MPI_Datatype datatype<int>() {
  return MPI_INT;
}
template <>
inline MPI_Datatype datatype<unsigned long long>() {
  return MPI_UNSIGNED_LONG_LONG;
}

// Throws std::runtime_error naming the call when an MPI call fails (the communicator's handler is
// set to return errors).
void check(int code, const char* call);

class Comm {
 public:
  explicit Comm(MPI_Comm comm);
  MPI_Comm get() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }

  template <class T>
  void allreduce(T* values, int count, MPI_Op op) const {
    check(MPI_Allreduce(MPI_IN_PLACE, values, count, datatype<T>(), op, comm_), "MPI_Allreduce");
  }
  template <class T>
  T sum(T v) const {
    allreduce(&v, 1, MPI_SUM);
    return v;
  }
  template <class T>
  T max(T v) const {
    allreduce(&v, 1, MPI_MAX);
    return v;
  }
  template <class T>
  T min(T v) const {
    allreduce(&v, 1, MPI_MIN);
    return v;
  }
  // Every rank's value, in rank order.
  template <class T>
  std::vector<T> allgather(T v) const {
    std::vector<T> all(size_);
    check(MPI_Allgather(&v, sizeof(T), MPI_BYTE, all.data(), sizeof(T), MPI_BYTE, comm_),
          "MPI_Allgather");
    return all;
  }
  // Every rank's items, concatenated in rank order (T trivially copyable); `from[r]` the first of
  // rank r's, from[size] the total.
  template <class T>
  std::vector<T> allgatherv(const std::vector<T>& mine,
                            std::vector<long long>* from = nullptr) const;
  // Items to each rank (send[r]), received from each (the result, in rank order; `from` as above).
  template <class T>
  std::vector<T> alltoallv(const std::vector<std::vector<T>>& send,
                           std::vector<long long>* from = nullptr) const;
  // The same from items packed rank after rank (counts[r] of them for rank r), into `received`
  // (its storage reused).
  template <class T>
  void alltoallv(const T* packed, const std::vector<int>& counts, std::vector<T>& received,
                 std::vector<long long>* from = nullptr) const;

  // The agreement on errors: collective. When any rank passes an exception, every rank throws:
  // the lowest failing rank's std::invalid_argument, std::overflow_error or OutOfMemory as that
  // type, anything else as std::runtime_error, with its message and the rank named.
  void agree(std::exception_ptr error) const;

 private:
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
};

// Runs fn; agrees on its exception across the ranks (Comm::agree).
template <class Fn>
void together(const Comm& comm, Fn&& fn) {
  std::exception_ptr error;
  try {
    fn();
  } catch (...) {
    error = std::current_exception();
  }
  comm.agree(error);
}

// Ends the job (MPI_Abort) after printing the rank's error: what a rank does when its local work
// fails inside a stage whose collectives the other ranks are already waiting in.
[[noreturn]] void abort_job(const Comm& comm, const char* stage, const char* what);

// Runs a stage whose collectives are interleaved with local work (the trees' build, the exchange).
// A rank whose local work throws there cannot tell the others, which wait in the stage's next
// collective, so it ends the job rather than leave them waiting. The errors that input can cause
// are found and agreed on before such stages (together).
template <class Fn>
void lockstep(const Comm& comm, const char* stage, Fn&& fn) {
  try {
    fn();
  } catch (const std::exception& e) {
    abort_job(comm, stage, e.what());
  } catch (...) {
    abort_job(comm, stage, "an exception that is not a std::exception");
  }
}

// How items of T travel: as 8-byte words where T is a whole number of them (MPI moves basic types
// at memory speed, where it may take derived types apart byte by byte), else as bytes. Counts in
// items are multiplied by `per_item`, and must stay within an int.
struct Words {
  MPI_Datatype type;
  int per_item;
};
template <class T>
Words words_of() {
  if (sizeof(T) % 8 == 0) return {MPI_UINT64_T, static_cast<int>(sizeof(T) / 8)};
  return {MPI_BYTE, static_cast<int>(sizeof(T))};
}
// counts[r] * per_item, throwing std::length_error where that leaves an int.
std::vector<int> in_words(const std::vector<long long>& counts, int per_item);

template <class T>
std::vector<T> Comm::allgatherv(const std::vector<T>& mine, std::vector<long long>* from) const {
  const std::vector<int> counts = allgather(static_cast<int>(mine.size()));
  std::vector<long long> displs(size_ + 1, 0);
  for (int r = 0; r < size_; ++r) displs[r + 1] = displs[r] + counts[r];
  std::vector<T> all(displs[size_]);
  const Words w = words_of<T>();
  const std::vector<int> words =
      in_words(std::vector<long long>(counts.begin(), counts.end()), w.per_item);
  const std::vector<int> word_displs =
      in_words(std::vector<long long>(displs.begin(), displs.end() - 1), w.per_item);
  check(MPI_Allgatherv(mine.data(), words[rank_], w.type, all.data(), words.data(),
                       word_displs.data(), w.type, comm_),
        "MPI_Allgatherv");
  if (from) from->assign(displs.begin(), displs.end());
  return all;
}

template <class T>
void Comm::alltoallv(const T* packed, const std::vector<int>& counts, std::vector<T>& received,
                     std::vector<long long>* from) const {
  std::vector<int> recv_counts(size_);
  check(MPI_Alltoall(counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm_),
        "MPI_Alltoall");
  const Words w = words_of<T>();
  // Displacements in words; each, like each count, within an int.
  std::vector<long long> send_counts(size_), receive_counts(size_);
  std::vector<long long> send_starts(size_, 0), recv_starts(size_ + 1, 0);
  for (int r = 0; r < size_; ++r) {
    send_counts[r] = counts[r];
    receive_counts[r] = recv_counts[r];
    if (r > 0) send_starts[r] = send_starts[r - 1] + counts[r - 1];
    recv_starts[r + 1] = recv_starts[r] + recv_counts[r];
  }
  const std::vector<int> send_words = in_words(send_counts, w.per_item);
  const std::vector<int> recv_words = in_words(receive_counts, w.per_item);
  const std::vector<int> sd = in_words(send_starts, w.per_item);
  const std::vector<int> rd =
      in_words(std::vector<long long>(recv_starts.begin(), recv_starts.end() - 1), w.per_item);
  received.resize(recv_starts[size_]);
  check(MPI_Alltoallv(packed, send_words.data(), sd.data(), w.type, received.data(),
                      recv_words.data(), rd.data(), w.type, comm_),
        "MPI_Alltoallv");
  if (from) from->assign(recv_starts.begin(), recv_starts.end());
}

template <class T>
std::vector<T> Comm::alltoallv(const std::vector<std::vector<T>>& send,
                               std::vector<long long>* from) const {
  std::vector<int> counts(size_);
  std::vector<T> packed;
  for (int r = 0; r < size_; ++r) {
    counts[r] = static_cast<int>(send[r].size());
    packed.insert(packed.end(), send[r].begin(), send[r].end());
  }
  std::vector<T> received;
  alltoallv(packed.data(), counts, received, from);
  return received;
}

}  // namespace vortex::mpi::detail
