#include "solvers/md/atom_records.hpp"

#include <cstddef>

namespace cb::md {
namespace {

using Policy = Kokkos::RangePolicy<ExecSpace>;

template <class View>
int components(const View& view) {
  if constexpr (View::rank == 1) {
    return 1;
  } else {
    return static_cast<int>(view.extent(1));
  }
}

// Element c of atom i (c is 0 for a one-component property).
template <class View>
KOKKOS_INLINE_FUNCTION typename View::reference_type element(const View& view, int i, int c) {
  if constexpr (View::rank == 1) {
    (void)c;
    return view(i);
  } else {
    return view(i, c);
  }
}

// A record layout being filled or read: `width` doubles per record, the next
// property at `column`.
struct Layout {
  BufferView buffer;
  int width = 0;
  int column = 0;
};

// Columns [column, column + components) of records [0, count) <- the property
// of atoms atom(k); advances the layout's column.
template <class View>
void pack_property(const View& property, const RowMap& atom, int count, Layout& layout) {
  const int n = components(property);
  const BufferView buffer = layout.buffer;
  const std::size_t width = layout.width, column = layout.column;
  Kokkos::parallel_for(
      "md::pack_record_property", Policy(0, count), KOKKOS_LAMBDA(int k) {
        const int i = atom(k);
        for (int c = 0; c < n; ++c) {
          buffer(k * width + column + c) = static_cast<double>(element(property, i, c));
        }
      });
  layout.column += n;
}

// The property of atoms [first, first + count) <- columns [column, column +
// components) of records record(k); advances the layout's column.
template <class View>
void unpack_property(const View& property, const RowMap& record, int count, int first,
                     Layout& layout) {
  using Value = typename View::non_const_value_type;
  const int n = components(property);
  const BufferView buffer = layout.buffer;
  const std::size_t width = layout.width, column = layout.column;
  Kokkos::parallel_for(
      "md::unpack_record_property", Policy(0, count), KOKKOS_LAMBDA(int k) {
        const std::size_t r = record(k);
        for (int c = 0; c < n; ++c) {
          element(property, first + k, c) = static_cast<Value>(buffer(r * width + column + c));
        }
      });
  layout.column += n;
}

// Sets the image code of atoms [first, first + count).
void set_owned_code(const IntView& code, int first, int count) {
  Kokkos::parallel_for(
      "md::set_owned_image_code", Policy(first, first + count),
      KOKKOS_LAMBDA(int i) { code(i) = owned_image_code; });
}

}  // namespace

int owned_record_width(const Atoms& atoms) {
  int width = 3;  // the position
  Atoms::for_each_property(
      atoms, [&width](const char*, const auto& view, Reach) { width += components(view); });
  return width;
}

int ghost_record_width(const Atoms& atoms) {
  int width = 4;  // the position and the image code
  Atoms::for_each_property(atoms, [&width](const char*, const auto& view, Reach reach) {
    if (reach == Reach::ghosts) width += components(view);
  });
  return width;
}

void pack_owned(const Atoms& atoms, const RowMap& atom, int count, const BufferView& buffer) {
  Layout layout{buffer, owned_record_width(atoms), 0};
  pack_property(atoms.x, atom, count, layout);
  Atoms::for_each_property(atoms, [&](const char*, const auto& view, Reach) {
    pack_property(view, atom, count, layout);
  });
}

void unpack_owned(const BufferView& buffer, const RowMap& record, int count, Atoms& atoms,
                  int first) {
  Layout layout{buffer, owned_record_width(atoms), 0};
  unpack_property(atoms.x, record, count, first, layout);
  Atoms::for_each_property(atoms, [&](const char*, const auto& view, Reach) {
    unpack_property(view, record, count, first, layout);
  });
  set_owned_code(atoms.code, first, count);
}

void pack_ghosts(const Atoms& atoms, const IntView& list, int count, const GhostShift& shift,
                 const BufferView& buffer) {
  const int width = ghost_record_width(atoms);
  const auto x = atoms.x;
  const auto code = atoms.code;
  const double sx = shift.x[0], sy = shift.x[1], sz = shift.x[2];
  const int code_shift = shift.code;
  Kokkos::parallel_for(
      "md::pack_ghost_positions", Policy(0, count), KOKKOS_LAMBDA(int k) {
        const int i = list(k);
        double* out = &buffer(std::size_t(k) * width);
        out[0] = x(i, 0) + sx;
        out[1] = x(i, 1) + sy;
        out[2] = x(i, 2) + sz;
        out[3] = code(i) + code_shift;
      });
  Layout layout{buffer, width, 4};
  const RowMap atom = RowMap::list(list);
  Atoms::for_each_property(atoms, [&](const char*, const auto& view, Reach reach) {
    if (reach == Reach::ghosts) pack_property(view, atom, count, layout);
  });
}

void unpack_ghosts(const BufferView& buffer, int count, Atoms& atoms, int first) {
  const int width = ghost_record_width(atoms);
  const auto x = atoms.x;
  const auto code = atoms.code;
  Kokkos::parallel_for(
      "md::unpack_ghost_positions", Policy(0, count), KOKKOS_LAMBDA(int k) {
        const double* in = &buffer(std::size_t(k) * width);
        const int g = first + k;
        x(g, 0) = in[0];
        x(g, 1) = in[1];
        x(g, 2) = in[2];
        code(g) = static_cast<int>(in[3]);
      });
  Layout layout{buffer, width, 4};
  const RowMap record = RowMap::range(0);
  Atoms::for_each_property(atoms, [&](const char*, const auto& view, Reach reach) {
    if (reach == Reach::ghosts) unpack_property(view, record, count, first, layout);
  });
}

void reorder_owned(Atoms& atoms, const IntView& order, const BufferView& scratch) {
  const int n = atoms.nlocal;
  pack_owned(atoms, RowMap::list(order), n, scratch);
  unpack_owned(scratch, RowMap::range(0), n, atoms, 0);
}

}  // namespace cb::md
