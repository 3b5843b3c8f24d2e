#!/usr/bin/python3
"""Turn a LAMMPS SPC/E data file (atom_style full, HEAT/data.spce) into GROMACS input.

Usage: spce_from_lammps.py DATA_FILE OUT_PREFIX  -> OUT_PREFIX.gro and OUT_PREFIX.top

The same molecules, positions and velocities as the data file (the cloudburst and
LAMMPS side of scripts/bench's production section): each molecule is written O, H, H,
made whole across the periodic box (H by the minimum image from its O, the O wrapped
into [0, L)), with the box shifted to start at 0. Units: A -> nm (/10), A/fs -> nm/ps
(x100). The topology is SPC/E (Berendsen, Grigera & Straatsma 1987, J. Phys. Chem.
91:6269): O sigma 0.3166 nm, epsilon 0.650 kJ/mol (0.15535 kcal/mol), charges
-0.8476/+0.4238, rigid by SETTLE with d_OH 0.1 nm and d_HH 0.16330 nm (109.47 deg).
Only the standard library: runs with Debian's /usr/bin/python3.
"""
import sys

SECTIONS = ("Masses", "Atoms", "Velocities", "Bonds", "Angles")


def read_data(path):
    box, atoms, vel, section = [], {}, {}, None
    with open(path) as f:
        for raw in f:
            line = raw.split("#")[0].strip()
            if not line:
                continue
            word = line.split()[0]
            if word in SECTIONS:
                section = word
                continue
            fields = line.split()
            if len(fields) >= 4 and fields[2][1:] in ("lo", "hi") and fields[3][1:] == "hi":
                box.append((float(fields[0]), float(fields[1])))
            elif section == "Atoms":
                # id mol type q x y z [ix iy iz]
                atoms[int(fields[0])] = (int(fields[1]), int(fields[2]),
                                         [float(v) for v in fields[4:7]])
            elif section == "Velocities":
                vel[int(fields[0])] = [float(v) for v in fields[1:4]]
    return box, atoms, vel


def molecules(atoms, oxygen_type):
    mols = {}
    for aid, (mol, typ, _) in atoms.items():
        mols.setdefault(mol, []).append(aid)
    out = []
    for mol in sorted(mols):
        ids = sorted(mols[mol], key=lambda a: (atoms[a][1] != oxygen_type, a))
        if len(ids) != 3 or atoms[ids[0]][1] != oxygen_type:
            sys.exit(f"molecule {mol}: not one O and two H")
        out.append(ids)
    return out


def whole(o, h, lengths):
    return [h[d] - lengths[d] * round((h[d] - o[d]) / lengths[d]) for d in range(3)]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    box, atoms, vel = read_data(sys.argv[1])
    lo = [b[0] for b in box]
    lengths = [b[1] - b[0] for b in box]
    oxygen_type = 2  # HEAT/data.spce: type 1 H (1.008), type 2 O (15.9994)
    mols = molecules(atoms, oxygen_type)
    lines = []
    for m, ids in enumerate(mols, start=1):
        o = [(atoms[ids[0]][2][d] - lo[d]) % lengths[d] for d in range(3)]
        for name, aid in zip(("OW", "HW1", "HW2"), ids):
            x = o if aid == ids[0] else whole(
                o, [atoms[aid][2][d] - lo[d] for d in range(3)], lengths)
            v = vel.get(aid, [0.0, 0.0, 0.0])
            n = 3 * (m - 1) + ("OW", "HW1", "HW2").index(name) + 1
            lines.append("%5d%-5s%5s%5d%8.3f%8.3f%8.3f%8.4f%8.4f%8.4f" %
                         (m % 100000, "SOL", name, n % 100000, *[c / 10 for c in x],
                          *[c * 100 for c in v]))
    with open(sys.argv[2] + ".gro", "w") as f:
        f.write(f"SPC/E water from {sys.argv[1]}\n{len(lines)}\n")
        f.write("\n".join(lines) + "\n")
        f.write("%10.5f%10.5f%10.5f\n" % tuple(L / 10 for L in lengths))
    with open(sys.argv[2] + ".top", "w") as f:
        f.write(TOPOLOGY % len(mols))


TOPOLOGY = """; SPC/E water (Berendsen, Grigera & Straatsma 1987), written by spce_from_lammps.py
[ defaults ]
; nbfunc comb-rule gen-pairs fudgeLJ fudgeQQ
  1       2         no        1.0     1.0

[ atomtypes ]
; name  mass     charge ptype sigma [nm] epsilon [kJ/mol]
  OW    15.9994  0.0    A     0.3166     0.650
  HW     1.008   0.0    A     0.0        0.0

[ moleculetype ]
; name nrexcl
  SOL  2

[ atoms ]
; nr type resnr residue atom cgnr charge   mass
  1    OW   1     SOL     OW   1    -0.8476  15.9994
  2    HW   1     SOL     HW1  1     0.4238   1.008
  3    HW   1     SOL     HW2  1     0.4238   1.008

[ settles ]
; OW funct doh  dhh
  1  1     0.1  0.16330

[ exclusions ]
  1 2 3
  2 1 3
  3 1 2

[ system ]
SPC/E water, LAMMPS examples/HEAT/data.spce

[ molecules ]
  SOL %d
"""

if __name__ == "__main__":
    main()
