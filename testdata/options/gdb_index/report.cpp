// gdb_index: a second C++ unit, instantiating the same template (its COMDAT copy of
// geo::twice<int> is discarded in favour of shapes.cpp's, or folded by --icf=all) and one of
// its own.
namespace geo {
template <typename T> T twice(T v) { return v + v; }
} // namespace geo

namespace report {
struct Totals {
  long sum;
};
static Totals add(Totals t, long v) { return Totals{t.sum + geo::twice(v)}; }
} // namespace report

int shape_report(int n) {
  report::Totals t{0};
  for (int i = 0; i < n; i++)
    t = report::add(t, geo::twice(i));
  return static_cast<int>(t.sum);
}
