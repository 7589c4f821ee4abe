"""python-blosc2 (PyPI wheel blosc2==4.14.1) on a given libblosc2.so.9.

Run by tools/python-check.sh:
  python_check.py write DIR             (no preload) writes DIR/ref.b2nd with the wheel
  python_check.py check DIR --lib LIB   (LD_PRELOAD=LIB) checks, in order:
    maps     LIB is mapped in this process and no other libblosc2.so* is;
    symbols  LIB exports every exported blosc2_*/b2nd_* function blosc2_ext.pyx declares;
    routing  the wheel's extension resolves those functions dynamically (undefined symbols
             in its ELF dynamic table), so the preloaded LIB is the one doing the work;
    ndarray  NDArray work (create, slice, set, resize, save/open, lazy expressions, opening
             the file of the write step), every result compared with numpy.
Prints one line per failed check and a last line "python-check: PASS|FAIL ...".
Exit status: 0 all passed; 1 a check failed; 3 only the routing check failed (the wheel's
extension carries its own static copy of c-blosc2, so no preload can reach it).
"""

import os
import re
import struct
import sys

import numpy as np

FAILURES = []
CHECKS = [0]


def check(cond, what):
    CHECKS[0] += 1
    if not cond:
        FAILURES.append(what)
        print(f"FAIL {what}", flush=True)
    return cond


def ref_data():
    """Content of the file written by the write step."""
    return (np.arange(60 * 70 * 3, dtype=np.float64).reshape(60, 70, 3) * 0.25) % 97.0


def write_step(directory):
    import blosc2

    path = os.path.join(directory, "ref.b2nd")
    blosc2.remove_urlpath(path)
    blosc2.asarray(ref_data(), chunks=(25, 30, 3), blocks=(10, 10, 3), urlpath=path, mode="w")
    print(f"wrote {path}")


# ---- ELF dynamic symbols ---------------------------------------------------------------


def undefined_dynamic_symbols(path):
    """Names of the undefined symbols in the .dynsym table of an ELF64 little-endian file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError(f"{path}: not an ELF64 little-endian file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = []
    for i in range(shnum):
        off = shoff + i * shentsize
        _name, stype, _flags, _addr, offset, size, link, _info, _align, entsize = struct.unpack_from(
            "<IIQQQQIIQQ", data, off)
        sections.append((stype, offset, size, link, entsize))
    names = set()
    for stype, offset, size, link, entsize in sections:
        if stype != 11:  # SHT_DYNSYM
            continue
        _st, str_off, _sz, _l, _e = sections[link]
        for k in range(size // entsize):
            st_name, _info, _other, st_shndx, _value, _size = struct.unpack_from(
                "<IBBHQQ", data, offset + k * entsize)
            if st_shndx != 0 or st_name == 0:
                continue
            end = data.index(b"\0", str_off + st_name)
            names.add(data[str_off + st_name:end].decode())
    return names


def declared_functions(pyx):
    """blosc2_*/b2nd_* functions named in the extern blocks of blosc2_ext.pyx."""
    text = open(pyx, encoding="utf-8").read()
    names = set()
    for block in re.split(r"\ncdef extern from ", text)[1:]:
        header = block.split(":", 1)[0]
        if '"blosc2.h"' not in header and '"b2nd.h"' not in header:
            continue
        body = []
        for line in block.splitlines()[1:]:
            if line and not line[0].isspace():
                break
            body.append(line)
        for m in re.finditer(r"\b((?:blosc1|blosc2|b2nd)_\w+)\s*\(", "\n".join(body)):
            names.add(m.group(1))
    return names


# ---- checks -----------------------------------------------------------------------------


def check_maps(lib):
    want = os.path.realpath(lib)
    mapped = set()
    with open("/proc/self/maps") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 6 and os.path.basename(parts[5]).startswith("libblosc2.so"):
                mapped.add(os.path.realpath(parts[5]))
    check(want in mapped, f"maps: {want} is not mapped (mapped: {sorted(mapped)})")
    others = sorted(mapped - {want})
    check(not others, f"maps: other libblosc2 copies are mapped: {others}")


def exported_in_headers(incdir):
    """Functions the wheel's headers declare BLOSC_EXPORT (not static inline, not macros)."""
    names = set()
    for root, _dirs, files in os.walk(incdir):
        for fname in files:
            if fname.endswith(".h"):
                text = open(os.path.join(root, fname), encoding="utf-8", errors="replace").read()
                for decl in re.findall(r"BLOSC_EXPORT[^;{]*?\b((?:blosc1|blosc2|b2nd)_\w+)\s*\(", text):
                    names.add(decl)
    return names


def check_symbols(lib, pkgdir):
    import ctypes

    pyx = os.path.join(pkgdir, "blosc2_ext.pyx")
    names = declared_functions(pyx) & exported_in_headers(os.path.join(pkgdir, "include"))
    check(len(names) > 100, f"symbols: only {len(names)} functions found in {pyx}")
    handle = ctypes.CDLL(lib)
    missing = sorted(n for n in names if not hasattr(handle, n))
    check(not missing, f"symbols: {lib} lacks {len(missing)} of {len(names)}: {' '.join(missing[:12])}")
    return names


def check_routing(pkgdir, names):
    ext = [f for f in os.listdir(pkgdir) if f.startswith("blosc2_ext") and f.endswith(".so")]
    if not check(len(ext) == 1, f"routing: blosc2_ext extension not found in {pkgdir}"):
        return False
    undefined = undefined_dynamic_symbols(os.path.join(pkgdir, ext[0]))
    routed = sorted(names & undefined)
    return check(
        len(routed) > 0,
        f"routing: {ext[0]} imports none of the {len(names)} blosc2/b2nd functions it calls "
        "(c-blosc2 is linked into it statically), so the preloaded library cannot serve them")


def check_ndarray(directory):
    import blosc2

    def same(got, want, what):
        got = np.asarray(got)
        ok = got.shape == want.shape and np.array_equal(got, want, equal_nan=True)
        return check(ok, f"ndarray: {what}: differs from numpy (shape {got.shape} vs {want.shape})")

    # creation
    z = blosc2.zeros((30, 40), dtype=np.int32, chunks=(10, 16), blocks=(5, 8))
    same(z[:], np.zeros((30, 40), np.int32), "zeros")
    f = blosc2.full((17, 9, 5), 3.5, dtype=np.float32, chunks=(8, 4, 5), blocks=(4, 2, 5))
    same(f[:], np.full((17, 9, 5), 3.5, np.float32), "full")
    r = blosc2.arange(0, 1000, 1, dtype=np.int64, shape=(10, 100), chunks=(4, 30), blocks=(2, 10))
    same(r[:], np.arange(1000, dtype=np.int64).reshape(10, 100), "arange")
    base = np.random.default_rng(7).integers(0, 1000, size=(50, 60, 7)).astype(np.float64)
    a = blosc2.asarray(base, chunks=(20, 25, 7), blocks=(5, 10, 7))
    same(a[:], base, "asarray")
    check(a.shape == base.shape and a.chunks == (20, 25, 7) and a.blocks == (5, 10, 7),
          f"ndarray: asarray geometry {a.shape} {a.chunks} {a.blocks}")
    # slices
    same(a[3:41, 7:59, 2:5], base[3:41, 7:59, 2:5], "slice get")
    same(a[10, :, 3], base[10, :, 3], "integer index get")
    same(a[::3, 5:50:7], base[::3, 5:50:7], "strided get")
    # set
    patch = np.arange(12 * 30 * 7, dtype=np.float64).reshape(12, 30, 7)
    a[15:27, 20:50] = patch
    base[15:27, 20:50] = patch
    same(a[:], base, "slice set")
    z[5:25, 3:33] = 7
    zz = np.zeros((30, 40), np.int32)
    zz[5:25, 3:33] = 7
    same(z[:], zz, "set on a zeros array")
    # resize (grown items are not compared: their content is unspecified)
    a.resize((70, 60, 7))
    check(a.shape == (70, 60, 7), f"ndarray: resize shape {a.shape}")
    same(a[:50], base, "resize keeps the data")
    a.resize((33, 41, 7))
    same(a[:], base[:33, :41], "resize shrink")
    # save / open
    path = os.path.join(directory, "ours.b2nd")
    blosc2.remove_urlpath(path)
    s = blosc2.asarray(base, chunks=(20, 25, 7), blocks=(5, 10, 7), urlpath=path, mode="w")
    s[0:2] = 1.0
    saved = base.copy()
    saved[0:2] = 1.0
    del s
    o = blosc2.open(path)
    same(o[:], saved, "save/open")
    o2 = blosc2.open(path, mode="a")
    o2[40:50, 50:60] = -2.0
    saved[40:50, 50:60] = -2.0
    del o2
    same(blosc2.open(path)[:], saved, "open mode a, set, reopen")
    # lazy expressions
    x = blosc2.asarray(np.linspace(0, 10, 3000).reshape(30, 100), chunks=(10, 40), blocks=(5, 20))
    y = blosc2.asarray(np.linspace(5, -5, 3000).reshape(30, 100), chunks=(10, 40), blocks=(5, 20))
    xn, yn = x[:], y[:]
    expr = x * 2 + y ** 2 - 1
    res = expr.compute()
    check(np.allclose(res[:], xn * 2 + yn ** 2 - 1), "ndarray: lazy expression x*2 + y**2 - 1")
    expr2 = blosc2.sin(x) + blosc2.cos(y)
    check(np.allclose(expr2[5:25, 10:90], np.sin(xn[5:25, 10:90]) + np.cos(yn[5:25, 10:90])),
          "ndarray: lazy expression sin(x) + cos(y), sliced")
    check(np.isclose(float((x + y).sum()), float((xn + yn).sum())), "ndarray: reduction sum(x + y)")
    # the file written without the preload
    ref = blosc2.open(os.path.join(directory, "ref.b2nd"))
    same(ref[:], ref_data(), "open of the file written in the write step")
    same(ref[5:55, 3:60:4, 1], ref_data()[5:55, 3:60:4, 1], "slice of the written file")


def check_step(directory, lib):
    import blosc2

    pkgdir = os.path.dirname(blosc2.__file__)
    check_maps(lib)
    names = check_symbols(lib, pkgdir)
    routed = check_routing(pkgdir, names)
    routing_failures = 0 if routed else 1
    try:
        check_ndarray(directory)
    except Exception as e:  # any exception is a failed check, reported as such
        check(False, f"ndarray: exception {type(e).__name__}: {e}")
    n, bad = CHECKS[0], len(FAILURES)
    if bad == 0:
        print(f"python-check: PASS ({n} checks, blosc2 {blosc2.__version__}, lib {lib})")
        return 0
    print(f"python-check: FAIL ({bad} of {n} checks failed, blosc2 {blosc2.__version__}, lib {lib})")
    return 3 if bad == routing_failures else 1


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "write":
        write_step(sys.argv[2])
        return 0
    if len(sys.argv) == 5 and sys.argv[1] == "check" and sys.argv[3] == "--lib":
        return check_step(sys.argv[2], sys.argv[4])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
