#!/usr/bin/env python3
"""Public struct fields of loaded containers, ours against the reference.

Loads our libblosc2 and the reference's into one process (ctypes) and opens every frame,
sparse frame and b2nd array of the shared corpus through both, in each way the C API
offers: ``blosc2_schunk_open``, ``blosc2_schunk_from_buffer`` with and without a copy,
``b2nd_open`` and ``b2nd_from_cframe``. The fields a C program reads from the returned
``blosc2_schunk`` (and its ``storage`` and ``storage->cparams``) and ``b2nd_array_t`` must
be equal; a container one library opens and the other refuses is a difference too.
Offsets are those of ``abi_layout.expected.txt`` (c-blosc2 3.3.5, x86-64).

usage: fields_check.py OURS_SO REFERENCE_SO CORPUS_DIR
"""
import ctypes
import glob
import os
import struct
import sys

# blosc2_schunk: the scalar fields, the parameter bytes and the counters.
SCHUNK_HEAD = 34  # version .. filters_meta
SCHUNK_I64 = {"nchunks": 40, "current_nchunk": 48, "nbytes": 56, "cbytes": 64}
SCHUNK_TAIL = 65792  # nvlmetalayers .. change_tick
# b2nd_array_t: per-dimension arrays (name, offset, item format) and scalars.
B2ND_ARRAYS = (("shape", 8, "q"), ("chunkshape", 136, "i"), ("extshape", 200, "q"),
               ("blockshape", 328, "i"), ("extchunkshape", 392, "q"),
               ("item_array_strides", 584, "q"), ("item_chunk_strides", 712, "q"),
               ("item_extchunk_strides", 840, "q"), ("item_block_strides", 968, "q"),
               ("block_chunk_strides", 1096, "q"), ("chunk_array_strides", 1224, "q"))
B2ND_SCALARS = (("nitems", 520, "q"), ("chunknitems", 528, "i"), ("extnitems", 536, "q"),
                ("blocknitems", 544, "i"), ("extchunknitems", 552, "q"))


def load(path):
    lib = ctypes.CDLL(path)
    lib.blosc2_init()
    lib.blosc2_schunk_open.restype = ctypes.c_void_p
    lib.blosc2_schunk_from_buffer.restype = ctypes.c_void_p
    return lib


def schunk_fields(sc):
    """The fields of the blosc2_schunk at address sc."""
    raw = ctypes.string_at(sc, 256)
    f = {"head": raw[:SCHUNK_HEAD].hex()}
    for name, off in SCHUNK_I64.items():
        f[name] = struct.unpack_from("<q", raw, off)[0]
    f["data_len"] = struct.unpack_from("<Q", raw, 80)[0]
    f["data is NULL"] = struct.unpack_from("<Q", raw, 72)[0] == 0
    f["frame is NULL"] = struct.unpack_from("<Q", raw, 96)[0] == 0
    f["nmetalayers"] = struct.unpack_from("<H", raw, 248)[0]
    tail = ctypes.string_at(sc + SCHUNK_TAIL, 40)
    f["nvlmetalayers"] = struct.unpack_from("<h", tail, 0)[0]
    f["tuner_id"] = struct.unpack_from("<i", tail, 16)[0]
    f["ndim"] = struct.unpack_from("<b", tail, 20)[0]
    f["view"] = tail[32]
    storage = struct.unpack_from("<Q", raw, 88)[0]
    if storage:
        st = ctypes.string_at(storage, 40)
        f["storage.contiguous"] = st[0]
        cparams = struct.unpack_from("<Q", st, 16)[0]
        if cparams:
            cp = ctypes.string_at(cparams, 48)
            f["storage.cparams"] = cp[:3].hex() + "/" + cp[4:24].hex() + "/" + cp[32:44].hex()
    return f


def array_fields(arr):
    """The fields of the b2nd_array_t at address arr, with those of its super-chunk (the
    first ndim entries of each per-dimension array: the reference leaves the others
    uninitialised)."""
    raw = ctypes.string_at(arr, 1376)
    ndim = struct.unpack_from("<b", raw, 560)[0]
    n = max(0, min(ndim, 16))
    f = {"ndim": ndim, "dtype_format": raw[1360]}
    for name, off, fmt in B2ND_ARRAYS:
        f[name] = struct.unpack_from("<%d%s" % (n, fmt), raw, off)
    for name, off, fmt in B2ND_SCALARS:
        f[name] = struct.unpack_from("<" + fmt, raw, off)[0]
    dtype = struct.unpack_from("<Q", raw, 1352)[0]
    f["dtype"] = ctypes.string_at(dtype) if dtype else None
    sc = struct.unpack_from("<Q", raw, 0)[0]
    f.update({"sc." + k: v for k, v in schunk_fields(sc).items()})
    return f


def malloc_copy(data):
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    p = libc.malloc(len(data))
    ctypes.memmove(p, data, len(data))
    return ctypes.c_void_p(p)


def opened(lib, path, how):
    """The fields of `path` opened by `lib` in the way `how`, or None when refused."""
    if how == "schunk_open":
        sc = lib.blosc2_schunk_open(path.encode())
        return schunk_fields(sc) if sc else None
    data = open(path, "rb").read() if not os.path.isdir(path) else None
    if how == "from_buffer copy":
        buf = ctypes.create_string_buffer(data, len(data))
        sc = lib.blosc2_schunk_from_buffer(buf, ctypes.c_int64(len(data)), ctypes.c_bool(True))
        return schunk_fields(sc) if sc else None
    if how == "from_buffer":
        sc = lib.blosc2_schunk_from_buffer(malloc_copy(data), ctypes.c_int64(len(data)),
                                           ctypes.c_bool(False))
        return schunk_fields(sc) if sc else None
    arr = ctypes.c_void_p()
    if how == "b2nd_open":
        rc = lib.b2nd_open(path.encode(), ctypes.byref(arr))
    else:
        buf = ctypes.create_string_buffer(data, len(data))
        rc = lib.b2nd_from_cframe(buf, ctypes.c_int64(len(data)), ctypes.c_bool(True),
                                  ctypes.byref(arr))
    return array_fields(arr.value) if rc == 0 and arr.value else None


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    ours, ref = load(sys.argv[1]), load(sys.argv[2])
    corpus = sys.argv[3]
    paths = set()
    for pattern in ("**/*.b2frame", "**/*.b2nd"):
        paths.update(glob.glob(os.path.join(corpus, pattern), recursive=True))
    cases = differ = 0
    for path in sorted(paths):
        ways = ["schunk_open"]
        if not os.path.isdir(path):
            ways += ["from_buffer copy", "from_buffer"]
        if path.endswith(".b2nd"):
            ways += ["b2nd_open"] + ([] if os.path.isdir(path) else ["b2nd_from_cframe"])
        for how in ways:
            cases += 1
            a, b = opened(ours, path, how), opened(ref, path, how)
            if a == b:
                continue
            differ += 1
            if a is None or b is None:
                what = "ours %s, the reference %s" % ("refused" if a is None else "opened",
                                                       "refused" if b is None else "opened")
            else:
                what = ", ".join("%s: ours %r, reference %r" % (k, a.get(k), b.get(k))
                                 for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k))
            print("DIFF %s (%s): %s" % (os.path.relpath(path, corpus), how, what))
    print("fields-check: %d containers opened %d ways, %d differ" % (len(paths), cases, differ))
    sys.exit(1 if differ or not cases else 0)


if __name__ == "__main__":
    main()
