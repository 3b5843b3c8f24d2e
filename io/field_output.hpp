// Field output for visualisation: one HDF5 file per output step
// (`<out>/fields/fields_<step:08d>.h5`, global datasets without ghosts, shape
// [nz][ny][nx]) and one XDMF file (`<out>/fields.xmf`) describing the whole time
// series as a 3DCoRectMesh with cell-centred attributes, so ParaView and VisIt
// open the run as one animated dataset. Ground-layer components (surface data,
// FieldComponent::ground_layer) are [1][ny][nx] datasets in the same files,
// described by `<out>/surface.xmf` on the lowest layer of cells.
#pragma once

#include "core/decomposition.hpp"
#include "core/solver.hpp"

#include <string>
#include <vector>

namespace cb::io {

class FieldOutput {
 public:
  // On restart, the series already in `<out_dir>/fields.xmf` is kept up to
  // `first_step` (later entries belong to the abandoned future and are dropped).
  FieldOutput(std::string out_dir, const Decomposition& decomposition, GridGeometry geometry,
              long first_step = 0);

  // Collective. Writes the fields file, then rewrites fields.xmf atomically.
  void write(long step, double time, const std::vector<FieldComponent>& fields);

 private:
  struct Entry {
    long step;
    double time;
    std::string file;                       // relative to out_dir
    std::vector<std::string> names;         // [nz][ny][nx]
    std::vector<std::string> ground_names;  // [1][ny][nx]
  };
  void write_xdmf() const;

  std::string out_dir_;
  const Decomposition* decomposition_;
  GridGeometry geometry_;
  std::vector<Entry> series_;
};

}  // namespace cb::io
