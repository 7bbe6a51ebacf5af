// timing_table: (step, duration) rows rendered as an aligned text table; the CLI prints one at
// the end of each command. Not thread-safe: one table belongs to one command's driver thread.
#pragma once
#include <chrono>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace pp {

class timing_table {
 public:
  using duration = std::chrono::nanoseconds;

  struct row {
    std::string step;
    duration elapsed{};
  };

  // Adds the time from construction to destruction (or stop()) as one row.
  class [[nodiscard]] scope {
   public:
    scope(timing_table& table, std::string step)
        : table_(&table), step_(std::move(step)), start_(std::chrono::steady_clock::now()) {}
    ~scope() { stop(); }
    scope(const scope&) = delete;
    scope& operator=(const scope&) = delete;
    void stop();

   private:
    timing_table* table_;
    std::string step_;
    std::chrono::steady_clock::time_point start_;
  };

  void add(std::string step, duration elapsed) { rows_.push_back({std::move(step), elapsed}); }
  [[nodiscard]] scope time(std::string step) { return scope(*this, std::move(step)); }

  [[nodiscard]] const std::vector<row>& rows() const { return rows_; }
  [[nodiscard]] bool empty() const { return rows_.empty(); }
  [[nodiscard]] duration total() const;

  // Rows in the order added, then a total row:
  //   step          time   share
  //   load key   1.204 s   80.1%
  //   ...
  //   total      1.503 s  100.0%
  // Share is of the sum of rows; rows that overlapped in time can sum past wall time.
  [[nodiscard]] std::string render() const;

  // "1.204 s", "12.345 ms", "87 us": three significant decimals in the largest fitting unit.
  [[nodiscard]] static std::string format_duration(duration d);

 private:
  std::vector<row> rows_;
};

}  // namespace pp
