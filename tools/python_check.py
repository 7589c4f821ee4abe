"""python-blosc2 4.14.1, built from its sdist against a system libblosc2, on a given library.

Run by tools/python-check.sh, with PYTHONPATH at an unpacked python-blosc2 wheel whose
extension links libblosc2.so.9 dynamically and LD_LIBRARY_PATH at the library to run on:
  python_check.py write DIR             writes DIR/ref.b2nd and DIR/ref.b2frame
  python_check.py check DIR --lib LIB   checks, in order:
    maps     LIB is mapped in this process and no other libblosc2.so* is;
    linkage  python-blosc2's extension needs libblosc2.so.9 and imports the blosc2_*/b2nd_*
             functions it calls (the PyPI wheel's imports none: they are linked into it);
    symbols  LIB exports each of them;
    work     NDArray (create, slice, set, resize, views, save/open, orthogonal selection,
             copy, concatenate, cframes), lazy expressions and user-defined functions (run
             through blosc2 prefilters), SChunk and vlmeta, compress2/decompress2 with every
             codec and filter that needs no plug-in, and the files of the write step, each
             result compared with numpy or the input.
  python_check.py wheel-info EXT        (informational) how the PyPI wheel's extension EXT
                                        is linked
Prints one line per failed check and a last line "python-check: PASS|FAIL ...".
Exit status: 0 all passed; 1 a check failed.
"""

import os
import re
import struct
import sys
import traceback

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
    """Content of the array written by the write step."""
    return (np.arange(60 * 70 * 3, dtype=np.float64).reshape(60, 70, 3) * 0.25) % 97.0


def ref_chunks():
    """Chunks of the super-chunk written by the write step."""
    return [np.arange(i * 1000, (i + 1) * 1000, dtype=np.int32) for i in range(5)]


def write_step(directory):
    import blosc2

    path = os.path.join(directory, "ref.b2nd")
    blosc2.remove_urlpath(path)
    blosc2.asarray(ref_data(), chunks=(25, 30, 3), blocks=(10, 10, 3), urlpath=path, mode="w")
    frame = os.path.join(directory, "ref.b2frame")
    blosc2.remove_urlpath(frame)
    sc = blosc2.SChunk(chunksize=4000, urlpath=frame, mode="w", contiguous=True,
                       cparams={"typesize": 4, "codec": blosc2.Codec.ZSTD, "clevel": 5})
    for c in ref_chunks():
        sc.append_data(c)
    sc.vlmeta["written-by"] = b"reference"
    print(f"wrote {path} and {frame}")


# ---- ELF dynamic section -----------------------------------------------------------------


def elf_dynamic(path):
    """(DT_NEEDED names, undefined dynamic symbol names) of an ELF64 little-endian file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError(f"{path}: not an ELF64 little-endian file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = []
    for i in range(shnum):
        _name, stype, _flags, _addr, offset, size, link, _info, _align, entsize = struct.unpack_from(
            "<IIQQQQIIQQ", data, shoff + i * shentsize)
        sections.append((stype, offset, size, link, entsize))

    def string(table, at):
        start = sections[table][1] + at
        return data[start:data.index(b"\0", start)].decode()

    needed, undefined = [], set()
    for stype, offset, size, link, entsize in sections:
        if stype == 6:  # SHT_DYNAMIC
            for k in range(size // 16):
                tag, val = struct.unpack_from("<qQ", data, offset + 16 * k)
                if tag == 1:  # DT_NEEDED
                    needed.append(string(link, val))
        elif stype == 11:  # SHT_DYNSYM
            for k in range(size // entsize):
                st_name, _info, _other, st_shndx, _value, _size = struct.unpack_from(
                    "<IBBHQQ", data, offset + k * entsize)
                if st_shndx == 0 and st_name != 0:
                    undefined.add(string(link, st_name))
    return needed, undefined


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


def extension_of(pkgdir):
    ext = [f for f in os.listdir(pkgdir) if f.startswith("blosc2_ext") and f.endswith(".so")]
    return os.path.join(pkgdir, ext[0]) if len(ext) == 1 else None


# ---- process and linkage checks -----------------------------------------------------------


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


def check_linkage(pkgdir, lib):
    import ctypes

    ext = extension_of(pkgdir)
    if not check(ext is not None, f"linkage: no blosc2_ext extension in {pkgdir}"):
        return
    needed, undefined = elf_dynamic(ext)
    check("libblosc2.so.9" in needed, f"linkage: {ext} does not need libblosc2.so.9 ({needed})")
    declared = declared_functions(os.path.join(pkgdir, "blosc2_ext.pyx"))
    imported = declared & undefined
    check(len(imported) >= 60,
          f"linkage: {ext} imports only {len(imported)} of the {len(declared)} functions it declares")
    handle = ctypes.CDLL(lib)
    missing = sorted(n for n in imported if not hasattr(handle, n))
    check(not missing, f"symbols: {lib} lacks {len(missing)} of {len(imported)}: {' '.join(missing[:12])}")
    print(f"linkage: {os.path.basename(ext)} needs {', '.join(needed)}; imports {len(imported)} "
          f"blosc2/b2nd functions, all exported by {lib}")


# ---- work ---------------------------------------------------------------------------------


def same(got, want, what):
    got = np.asarray(got)
    nan = want.dtype.kind in "fc"
    ok = got.shape == want.shape and got.dtype == want.dtype and np.array_equal(got, want, equal_nan=nan)
    return check(ok, f"{what}: differs from numpy (shape {got.shape} {got.dtype} vs {want.shape} {want.dtype})")


def check_ndarray(directory):
    import blosc2

    # creation
    z = blosc2.zeros((30, 40), dtype=np.int32, chunks=(10, 16), blocks=(5, 8))
    same(z[:], np.zeros((30, 40), np.int32), "ndarray: zeros")
    f = blosc2.full((17, 9, 5), 3.5, dtype=np.float32, chunks=(8, 4, 5), blocks=(4, 2, 5))
    same(f[:], np.full((17, 9, 5), 3.5, np.float32), "ndarray: full")
    n = blosc2.nans((7, 11), dtype=np.float64, chunks=(4, 4), blocks=(2, 2))
    same(n[:], np.full((7, 11), np.nan), "ndarray: nans")
    # (blosc2.arange and linspace fill through a miniexpr kernel: the stand-in refuses it)
    u = blosc2.uninit((10, 100), dtype=np.int64, chunks=(4, 30), blocks=(2, 10))
    u[:] = np.arange(1000, dtype=np.int64).reshape(10, 100)
    same(u[:], np.arange(1000, dtype=np.int64).reshape(10, 100), "ndarray: uninit, then set")
    base = np.random.default_rng(7).integers(0, 1000, size=(50, 60, 7)).astype(np.float64)
    a = blosc2.asarray(base, chunks=(20, 25, 7), blocks=(5, 10, 7))
    same(a[:], base, "ndarray: asarray")
    check(a.shape == base.shape and a.chunks == (20, 25, 7) and a.blocks == (5, 10, 7),
          f"ndarray: asarray geometry {a.shape} {a.chunks} {a.blocks}")
    s = blosc2.asarray(np.array([(1, 2.5), (3, -1.0)] * 50, dtype="i4,f8"), chunks=(30,), blocks=(10,))
    same(s[:], np.array([(1, 2.5), (3, -1.0)] * 50, dtype="i4,f8"), "ndarray: structured dtype")
    zero_d = blosc2.asarray(np.array(42.0))
    same(zero_d[()], np.array(42.0), "ndarray: 0-d array")
    # slices
    same(a[3:41, 7:59, 2:5], base[3:41, 7:59, 2:5], "ndarray: slice get")
    same(a[10, :, 3], base[10, :, 3], "ndarray: integer index get")
    same(a[::3, 5:50:7], base[::3, 5:50:7], "ndarray: strided get")
    same(a.slice((slice(5, 30), slice(0, 60)))[:], base[5:30, 0:60], "ndarray: slice() to a new array")
    same(a.oindex[[1, 4, 9], list(range(0, 60, 3)), [0, 6]], base[np.ix_([1, 4, 9], range(0, 60, 3), [0, 6])],
         "ndarray: orthogonal selection get")
    a.oindex[[2, 3], [5, 8], [0, 1, 2, 3, 4, 5, 6]] = np.full((2, 2, 7), -5.0)
    base[np.ix_([2, 3], [5, 8], range(7))] = -5.0
    same(a[:], base, "ndarray: orthogonal selection set")
    # set
    patch = np.arange(12 * 30 * 7, dtype=np.float64).reshape(12, 30, 7)
    a[15:27, 20:50] = patch
    base[15:27, 20:50] = patch
    same(a[:], base, "ndarray: slice set")
    z[5:25, 3:33] = 7
    zz = np.zeros((30, 40), np.int32)
    zz[5:25, 3:33] = 7
    same(z[:], zz, "ndarray: set on a zeros array")
    # views (b2nd_squeeze_index / b2nd_expand_dims) share their source's items
    one = blosc2.asarray(np.arange(40.0).reshape(1, 8, 5), chunks=(1, 4, 5), blocks=(1, 2, 5))
    sq = one.squeeze(axis=0)
    same(sq[:], np.arange(40.0).reshape(8, 5), "ndarray: squeeze view")
    one[0, 3, 2] = -1.0
    check(float(sq[3, 2]) == -1.0, "ndarray: a squeezed view reads a later write to its source")
    ex = blosc2.expand_dims(one, axis=2)
    same(ex[:], one[:].reshape(1, 8, 1, 5), "ndarray: expand_dims view")
    del sq, ex
    same(one[:].reshape(40), np.concatenate([np.arange(17.0), [-1.0], np.arange(18.0, 40.0)]),
         "ndarray: source after its views are gone")
    # resize (grown items are not compared: their content is unspecified)
    a.resize((70, 60, 7))
    check(a.shape == (70, 60, 7), f"ndarray: resize shape {a.shape}")
    same(a[:50], base, "ndarray: resize keeps the data")
    a.resize((33, 41, 7))
    same(a[:], base[:33, :41], "ndarray: resize shrink")
    # copy to another geometry, concatenate, cframes
    c = a.copy(chunks=(11, 13, 7), blocks=(3, 5, 7))
    same(c[:], base[:33, :41], "ndarray: copy to another chunk/block shape")
    b = blosc2.asarray(np.ones((5, 41, 7)), chunks=(20, 25, 7), blocks=(5, 10, 7))
    same(blosc2.concat([a, b], axis=0)[:], np.concatenate([base[:33, :41], np.ones((5, 41, 7))]),
         "ndarray: concat")
    same(blosc2.ndarray_from_cframe(a.to_cframe())[:], base[:33, :41], "ndarray: to_cframe / from_cframe")
    # vlmeta and save / open
    path = os.path.join(directory, "ours.b2nd")
    blosc2.remove_urlpath(path)
    s = blosc2.asarray(base, chunks=(20, 25, 7), blocks=(5, 10, 7), urlpath=path, mode="w")
    s[0:2] = 1.0
    s.vlmeta["note"] = {"k": [1, 2, 3]}
    saved = base.copy()
    saved[0:2] = 1.0
    del s
    o = blosc2.open(path)
    same(o[:], saved, "ndarray: save/open")
    check(o.vlmeta["note"] == {"k": [1, 2, 3]}, f"ndarray: vlmeta after reopen: {o.vlmeta[:]}")
    o2 = blosc2.open(path, mode="a")
    o2[40:50, 50:60] = -2.0
    saved[40:50, 50:60] = -2.0
    del o2
    same(blosc2.open(path)[:], saved, "ndarray: open mode a, set, reopen")
    sparse = os.path.join(directory, "ours-sparse.b2nd")
    blosc2.remove_urlpath(sparse)
    blosc2.asarray(saved, chunks=(20, 25, 7), blocks=(5, 10, 7), urlpath=sparse, contiguous=False, mode="w")
    same(blosc2.open(sparse)[5:45, ::2], saved[5:45, ::2], "ndarray: sparse frame save/open")


def check_lazy(_directory):
    import blosc2

    x = blosc2.asarray(np.linspace(0, 10, 3000).reshape(30, 100), chunks=(10, 40), blocks=(5, 20))
    y = blosc2.asarray(np.linspace(5, -5, 3000).reshape(30, 100), chunks=(10, 40), blocks=(5, 20))
    xn, yn = x[:], y[:]
    res = (x * 2 + y ** 2 - 1).compute()
    check(np.allclose(res[:], xn * 2 + yn ** 2 - 1), "lazy: x*2 + y**2 - 1")
    expr2 = blosc2.sin(x) + blosc2.cos(y)
    check(np.allclose(expr2[5:25, 10:90], np.sin(xn[5:25, 10:90]) + np.cos(yn[5:25, 10:90])),
          "lazy: sin(x) + cos(y), sliced")
    check(np.isclose(float((x + y).sum()), float((xn + yn).sum())), "lazy: reduction sum(x + y)")
    check(np.allclose((x > y).compute()[:], xn > yn), "lazy: comparison x > y")
    check(np.allclose(blosc2.lazyexpr("x * y + 3", {"x": x, "y": y}).compute()[:], xn * yn + 3),
          "lazy: lazyexpr from a string")

    def udf(inputs, output, offset):
        a, b = inputs
        output[:] = a * 3 - b

    lu = blosc2.lazyudf(udf, (x, y), dtype=np.float64)
    check(np.allclose(lu.compute()[:], xn * 3 - yn), "lazy: lazyudf (blosc2 prefilter) compute")
    check(np.allclose(lu[3:17, 20:70], xn[3:17, 20:70] * 3 - yn[3:17, 20:70]), "lazy: lazyudf sliced")


def check_schunk(directory):
    import blosc2

    data = [np.arange(i * 2500, (i + 1) * 2500, dtype=np.int64) for i in range(6)]
    sc = blosc2.SChunk(chunksize=2500 * 8, cparams={"typesize": 8, "codec": blosc2.Codec.LZ4,
                                                   "filters": [blosc2.Filter.SHUFFLE]})
    for d in data:
        sc.append_data(d)
    check(sc.nchunks == 6, f"schunk: nchunks {sc.nchunks}")
    got = np.frombuffer(sc.decompress_chunk(3), dtype=np.int64)
    same(got, data[3], "schunk: decompress_chunk")
    flat = np.concatenate(data)
    same(np.frombuffer(sc[1000:9000], dtype=np.int64), flat[1000:9000], "schunk: get_slice")
    sc[2000:2010] = np.full(10, -1, dtype=np.int64)
    flat[2000:2010] = -1
    same(np.frombuffer(sc[:], dtype=np.int64), flat, "schunk: set_slice")
    sc.update_data(0, np.zeros(2500, dtype=np.int64), copy=True)
    sc.insert_data(1, np.ones(2500, dtype=np.int64), copy=True)
    sc.delete_chunk(5)
    want = np.concatenate([np.zeros(2500, np.int64), np.ones(2500, np.int64)] + [flat[2500 * i:2500 * (i + 1)] for i in (1, 2, 3, 5)])
    same(np.frombuffer(sc[:], dtype=np.int64), want, "schunk: update/insert/delete")
    sc.vlmeta["a"] = b"first"
    sc.vlmeta["b"] = {"x": 1}
    sc.vlmeta["a"] = b"second"
    del sc.vlmeta["b"]
    check(sc.vlmeta["a"] == b"second" and "b" not in sc.vlmeta and len(sc.vlmeta) == 1,
          f"schunk: vlmeta {sc.vlmeta.getall()}")
    back = blosc2.schunk_from_cframe(sc.to_cframe(), copy=True)
    same(np.frombuffer(back[:], dtype=np.int64), want, "schunk: to_cframe / schunk_from_cframe")
    check(back.vlmeta["a"] == b"second", "schunk: vlmeta through a cframe")
    ref = blosc2.open(os.path.join(directory, "ref.b2frame"))
    same(np.frombuffer(ref[:], dtype=np.int32), np.concatenate(ref_chunks()),
         "schunk: open of the frame written in the write step")
    check(ref.vlmeta["written-by"] == b"reference", "schunk: vlmeta of the written frame")


def check_codecs(_directory):
    import blosc2

    src = (np.arange(200_000, dtype=np.float64) * 0.37 % 11).astype(np.float64)
    raw = src.tobytes()
    codecs = [blosc2.Codec.BLOSCLZ, blosc2.Codec.LZ4, blosc2.Codec.LZ4HC, blosc2.Codec.ZLIB,
              blosc2.Codec.ZSTD]
    filters = [[blosc2.Filter.NOFILTER], [blosc2.Filter.SHUFFLE], [blosc2.Filter.BITSHUFFLE],
               [blosc2.Filter.DELTA, blosc2.Filter.SHUFFLE], [blosc2.Filter.BYTEDELTA]]
    for codec in codecs:
        for flt in filters:
            meta = [8 if fl == blosc2.Filter.BYTEDELTA else 0 for fl in flt]
            c = blosc2.compress2(raw, codec=codec, clevel=5, typesize=8, filters=flt, filters_meta=meta)
            back = blosc2.decompress2(c)
            check(back == raw and len(c) < len(raw),
                  f"codecs: {codec.name} {[f.name for f in flt]} round trip ({len(c)} bytes)")
    lossy = blosc2.compress2(raw, codec=blosc2.Codec.ZSTD, typesize=8,
                             filters=[blosc2.Filter.TRUNC_PREC], filters_meta=[20])
    back = np.frombuffer(blosc2.decompress2(lossy), dtype=np.float64)
    check(np.allclose(back, src, rtol=1e-5), "codecs: TRUNC_PREC keeps 20 bits of mantissa")
    ints = np.arange(100_000, dtype=np.int32) * 7
    ic = blosc2.compress2(ints.tobytes(), typesize=4, filters=[blosc2.Filter.INT_TRUNC], filters_meta=[-3])
    back = np.frombuffer(blosc2.decompress2(ic), dtype=np.int32)
    check(np.array_equal(back, ints & ~7), "codecs: INT_TRUNC zeroes 3 low bits")
    one = blosc2.compress(raw, typesize=8, codec=blosc2.Codec.LZ4)
    check(blosc2.decompress(one) == raw, "codecs: compress/decompress (the blosc1 API)")
    packed = blosc2.pack_array2(src.reshape(400, 500))
    same(blosc2.unpack_array2(packed), src.reshape(400, 500), "codecs: pack_array2 / unpack_array2")


def check_written(directory):
    import blosc2

    ref = blosc2.open(os.path.join(directory, "ref.b2nd"))
    same(ref[:], ref_data(), "files: open of the array written in the write step")
    same(ref[5:55, 3:60:4, 1], ref_data()[5:55, 3:60:4, 1], "files: slice of the written array")


def check_step(directory, lib):
    import blosc2

    pkgdir = os.path.dirname(blosc2.__file__)
    print(f"python-blosc2 {blosc2.__version__} from {pkgdir}")
    check_maps(lib)
    check_linkage(pkgdir, lib)
    for part in (check_ndarray, check_lazy, check_schunk, check_codecs, check_written):
        try:
            part(directory)
        except Exception as e:  # any exception is a failed check, reported as such
            line = traceback.extract_tb(e.__traceback__)[-1]
            check(False, f"{part.__name__}: exception {type(e).__name__}: {e} "
                         f"({os.path.basename(line.filename)}:{line.lineno})")
    n, bad = CHECKS[0], len(FAILURES)
    if bad == 0:
        print(f"python-check: PASS ({n} checks, blosc2 {blosc2.__version__}, lib {lib})")
        return 0
    print(f"python-check: FAIL ({bad} of {n} checks failed, blosc2 {blosc2.__version__}, lib {lib})")
    return 1


def wheel_info(ext):
    needed, undefined = elf_dynamic(ext)
    calls = sorted(n for n in undefined if n.startswith(("blosc1_", "blosc2_", "b2nd_")))
    if "libblosc2.so.9" not in needed and not calls:
        print(f"info: the PyPI wheel's {os.path.basename(ext)} needs {', '.join(needed)} and imports no "
              "blosc2/b2nd function: c-blosc2 is linked into it statically, so it never calls a "
              "libblosc2.so.9 that is preloaded or on the library path (not a drop-in test)")
    else:
        print(f"info: the PyPI wheel's {os.path.basename(ext)} needs {', '.join(needed)} and imports "
              f"{len(calls)} blosc2/b2nd functions")
    return 0


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "write":
        write_step(sys.argv[2])
        return 0
    if len(sys.argv) == 5 and sys.argv[1] == "check" and sys.argv[3] == "--lib":
        return check_step(sys.argv[2], sys.argv[4])
    if len(sys.argv) == 3 and sys.argv[1] == "wheel-info":
        return wheel_info(sys.argv[2])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
