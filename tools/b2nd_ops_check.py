#!/usr/bin/env python3
"""Random b2nd operation sequences, ours against the reference.

Loads our libblosc2 and the reference's into one process (ctypes), creates the same
1-D to 3-D array through each (from a buffer, zeros, NaNs or full; in memory, in an in-memory
frame, in a frame file or a sparse directory) and runs the same random sequence of
b2nd calls on both: get/set slices, orthogonal and sparse reads, resize (growing and
shrinking, at the end or at a start), insert, append, delete, copy and get_slice into
new arrays, orthogonal writes, concatenation with itself (into a new array and in
place), copies with other chunk and block shapes, frames appended to a file and opened back at
their offset, saving (the files compared),
variable-length metalayers, a round trip through a contiguous frame, and (files and
directories) closing and opening again. Arrays start from a buffer, zeros, NaNs or a fill
value. After each call the return values, the data read, and the public fields of
both ``b2nd_array_t`` structs and their super-chunks must be equal; at the end of each
sequence the array's contents (``b2nd_to_cbuffer``) and its frame (``b2nd_to_cframe``)
must be identical.

Sequences that reach the reference's bugs are not generated or not compared: appends
(and inserts at the end) to an axis that does not end on a chunk boundary (the reference
writes them at the next boundary and loses items), appends and inserts of a number of
items that is not a whole number of chunks (it drops the rest), inserts into an array with an empty
axis (it divides by zero), deletions past the end of an axis and resizes
shrinking from a start past it (it shortens the shape but keeps the chunks), removing every chunk of an in-memory frame (it
then writes a frame whose header counts the removed bytes), empty slices (it still reads, and for set_slice
rewrites, the chunk holding the start, which shows in current_nchunk), and
current_nchunk after calls both libraries refuse (the reference may touch a chunk before
refusing) and after views (the reference's share the super-chunk) and after resizes and deletions of all-zero arrays (it rewrites a chunk that
stays all zeros, which this library leaves alone), and views (squeeze, expand_dims) of
arrays with variable-length metalayers (freeing one crashes the reference). Super-chunks
without a frame leave cbytes out of the comparison: the reference counts the bytes of
special chunks when they come in and not when they go, and every array starts with them.

usage: b2nd_ops_check.py OURS_SO REFERENCE_SO [TRIALS] [SEED]
"""
import ctypes
import os
import random
import shutil
import struct
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fields_check  # noqa: E402
import ops_check  # noqa: E402

I64 = ctypes.c_int64


def arr64(values):
    return (ctypes.c_int64 * max(1, len(values)))(*values)


def load(path):
    lib = fields_check.load(path)
    lib.b2nd_create_ctx.restype = ctypes.c_void_p
    return lib


class Lib:
    """One library with the buffers its contexts point to."""

    def __init__(self, lib):
        self.lib, self.keep = lib, []

    def ctx(self, g, shape, path):
        """A b2nd context for `g` (the trial's parameters) with `shape`."""
        cp = ops_check.cparams_bytes(g["typesize"], g["codec"], 0, g["filter"])
        cp[2] = g["clevel"]
        dp = (ctypes.c_ubyte * 64)()
        struct.pack_into("<h", dp, 0, 1)
        st = (ctypes.c_ubyte * 40)()
        st[0] = g["kind"] in ("cframe-mem", "cframe-file")
        url = ctypes.create_string_buffer(path.encode()) if path else None
        struct.pack_into("<QQQ", st, 8, ctypes.addressof(url) if url else 0,
                         ctypes.addressof(cp), ctypes.addressof(dp))
        self.keep += [cp, dp, st, url]
        nd = len(shape)
        return ctypes.c_void_p(self.lib.b2nd_create_ctx(
            ctypes.byref(st), nd, arr64(shape), (ctypes.c_int32 * nd)(*g["chunkshape"]),
            (ctypes.c_int32 * nd)(*g["blockshape"]), None, 0, None, 0))


def state(lib, a):
    """Fields, contents and frame of array `a`."""
    f = fields_check.array_fields(a.value)
    n = f["nitems"] * (f["sc.head"] and 1)
    ts = struct.unpack_from("<i", bytes.fromhex(f["sc.head"]), 8)[0]
    buf = ctypes.create_string_buffer(max(1, n * ts))
    rc = lib.b2nd_to_cbuffer(a, buf, I64(len(buf)))
    p, size, nf = ctypes.c_void_p(), I64(), ctypes.c_bool()
    rc2 = lib.b2nd_to_cframe(a, ctypes.byref(p), ctypes.byref(size), ctypes.byref(nf))
    frame = ctypes.string_at(p, size.value) if rc2 == 0 else rc2
    return f, (rc, buf.raw), frame


def taken(lib, rc, out):
    """The state of the new array `out` a call returning `rc` made (freed), or `rc`."""
    if rc != 0:
        return rc
    st = state(lib, out)
    lib.b2nd_free(out)
    return st


def new_array(L, g, path):
    lib, a = L.lib, ctypes.c_void_p()
    ctx = L.ctx(g, g["shape"], path)
    if g["make"] == "from":
        rc = lib.b2nd_from_cbuffer(ctx, ctypes.byref(a), g["data"], I64(len(g["data"])))
    elif g["make"] == "zeros":
        rc = lib.b2nd_zeros(ctx, ctypes.byref(a))
    elif g["make"] == "nans":
        rc = lib.b2nd_nans(ctx, ctypes.byref(a))
    else:
        rc = lib.b2nd_full(ctx, ctypes.byref(a), g["data"][:g["typesize"]])
    lib.b2nd_free_ctx(ctx)
    return rc, a


def step(L, a, op, x, g, tmp, side):
    """Runs `op` with arguments `x` on one library's array; its result."""
    lib, nd, ts = L.lib, len(g["shape"]), g["typesize"]
    if op in ("get_slice", "set_slice"):
        start, stop = x["start"], x["stop"]
        bshape = [max(0, b - s) for s, b in zip(start, stop)]
        size = ts
        for b in bshape:
            size *= b
        buf = ctypes.create_string_buffer(x["bytes"][:size], max(1, size))
        if op == "get_slice":
            rc = lib.b2nd_get_slice_cbuffer(a, arr64(start), arr64(stop), buf, arr64(bshape),
                                            I64(size))
            return rc, buf.raw if rc == 0 else None
        return lib.b2nd_set_slice_cbuffer(buf, arr64(bshape), I64(size), arr64(start),
                                          arr64(stop), a)
    if op in ("orthogonal", "set_orthogonal"):
        sel = [arr64(s) for s in x["sel"]]
        ptrs = (ctypes.POINTER(ctypes.c_int64) * nd)(
            *[ctypes.cast(s, ctypes.POINTER(ctypes.c_int64)) for s in sel])
        sizes = arr64([len(s) for s in x["sel"]])
        n = ts
        for s in x["sel"]:
            n *= len(s)
        if op == "set_orthogonal":
            buf = ctypes.create_string_buffer(x["bytes"][:n], max(1, n))
            return lib.b2nd_set_orthogonal_selection(a, ptrs, sizes, buf, sizes, I64(n))
        buf = ctypes.create_string_buffer(max(1, n))
        rc = lib.b2nd_get_orthogonal_selection(a, ptrs, sizes, buf, sizes, I64(n))
        return rc, buf.raw if rc == 0 else None
    if op == "concatenate":
        out = ctypes.c_void_p()
        ctx = L.ctx(g, g["shape"], None)
        rc = lib.b2nd_concatenate(ctx, a, a, ctypes.c_int8(x["axis"]), ctypes.c_bool(True),
                                  ctypes.byref(out))
        lib.b2nd_free_ctx(ctx)
        return taken(lib, rc, out)
    if op == "concatenate in place":
        other, out = ctypes.c_void_p(), ctypes.c_void_p()
        ctx = L.ctx(g, g["shape"], None)
        rc = lib.b2nd_copy(ctx, a, ctypes.byref(other))
        if rc == 0:
            rc = lib.b2nd_concatenate(ctx, a, other, ctypes.c_int8(x["axis"]),
                                      ctypes.c_bool(False), ctypes.byref(out))
            lib.b2nd_free(other)
        lib.b2nd_free_ctx(ctx)
        return rc, out.value == a.value if rc == 0 else None
    if op == "save_append":
        path = os.path.join(tmp, "append%d.b2frame" % side)
        at = lib.b2nd_save_append(a, path.encode())
        if at < 0:
            return at
        out = ctypes.c_void_p()
        rc = lib.b2nd_open_offset(path.encode(), ctypes.byref(out), I64(at))
        if rc != 0:
            return at, rc
        st = state(lib, out)
        lib.b2nd_free(out)
        return at, st, open(path, "rb").read()
    if op in ("squeeze", "expand_dims"):
        view = ctypes.c_void_p()
        if op == "squeeze":
            rc = lib.b2nd_squeeze(a, ctypes.byref(view))
        else:
            axes = (ctypes.c_bool * 8)(*([True] + [False] * 7))
            rc = lib.b2nd_expand_dims(a, ctypes.byref(view), axes, ctypes.c_uint8(nd + 1))
        if rc != 0:
            return rc
        # A view's own fields only: the reference's shares the source's super-chunk, ours
        # has one of its own (linked to the source's chunks).
        f = {k: v for k, v in fields_check.array_fields(view.value).items()
             if not k.startswith("sc.")}
        n = f["nitems"]
        buf = ctypes.create_string_buffer(max(1, n * ts))
        rc2 = lib.b2nd_to_cbuffer(view, buf, I64(len(buf)))
        lib.b2nd_free(view)
        return f, rc2, buf.raw
    if op == "save":
        path = os.path.join(tmp, "save%d.b2nd" % side)
        shutil.rmtree(path, ignore_errors=True)
        if os.path.exists(path):
            os.remove(path)
        rc = lib.b2nd_save(a, path.encode())
        if os.path.isdir(path):
            return rc, sorted((f, open(os.path.join(path, f), "rb").read())
                              for f in os.listdir(path))
        return rc, open(path, "rb").read() if os.path.exists(path) else None
    if op == "sparse":
        coords = arr64(x["coords"])
        buf = ctypes.create_string_buffer(max(1, ts * len(x["coords"])))
        rc = lib.b2nd_get_sparse_cbuffer(a, I64(len(x["coords"])), coords, buf, I64(len(buf)))
        return rc, buf.raw if rc == 0 else None
    if op == "resize":
        return lib.b2nd_resize(a, arr64(x["new_shape"]),
                               arr64(x["at"]) if x["at"] is not None else None)
    if op in ("insert", "append"):
        shape = list(fields_check.array_fields(a.value)["shape"])
        shape[x["axis"]] = x["count"]
        size = ts
        for s in shape:
            size *= s
        buf = ctypes.create_string_buffer(x["bytes"][:size], max(1, size))
        if op == "append":
            return lib.b2nd_append(a, buf, I64(size), ctypes.c_int8(x["axis"]))
        return lib.b2nd_insert(a, buf, I64(size), ctypes.c_int8(x["axis"]), I64(x["where"]))
    if op == "delete":
        return lib.b2nd_delete(a, ctypes.c_int8(x["axis"]), I64(x["where"]), I64(x["count"]))
    if op == "reopen":
        lib.b2nd_free(a)
        out = ctypes.c_void_p()
        rc = lib.b2nd_open(os.path.join(tmp, "a%d.b2nd" % side).encode(), ctypes.byref(out))
        a.value = out.value
        return rc
    if op == "vlmeta":
        sc = ctypes.c_void_p.from_address(a.value)
        name, content = x["vlname"], x["bytes"][:24]
        if lib.blosc2_vlmeta_exists(sc, name) >= 0:
            return lib.blosc2_vlmeta_update(sc, name, content, len(content), None)
        return lib.blosc2_vlmeta_add(sc, name, content, len(content), None)
    if op == "cframe":
        p, size, nf = ctypes.c_void_p(), I64(), ctypes.c_bool()
        rc = lib.b2nd_to_cframe(a, ctypes.byref(p), ctypes.byref(size), ctypes.byref(nf))
        if rc != 0:
            return rc
        out = ctypes.c_void_p()
        rc = lib.b2nd_from_cframe(p, size, ctypes.c_bool(True), ctypes.byref(out))
        return taken(lib, rc, out)
    if op == "copy rechunked":
        out = ctypes.c_void_p()
        g2 = dict(g, chunkshape=[c + 1 for c in g["chunkshape"]],
                  blockshape=[max(1, b - 1) for b in g["blockshape"]])
        ctx = L.ctx(g2, g["shape"], None)
        rc = lib.b2nd_copy(ctx, a, ctypes.byref(out))
        lib.b2nd_free_ctx(ctx)
        return taken(lib, rc, out)
    if op in ("copy", "get_slice_array"):
        path = None
        if g["kind"] in ("cframe-file", "sframe-dir"):
            path = os.path.join(tmp, "copy%d.b2nd" % side)
            shutil.rmtree(path, ignore_errors=True)
            if os.path.exists(path):
                os.remove(path)
        out = ctypes.c_void_p()
        ctx = L.ctx(g, g["shape"], path)
        if op == "copy":
            rc = lib.b2nd_copy(ctx, a, ctypes.byref(out))
        else:
            rc = lib.b2nd_get_slice(ctx, ctypes.byref(out), a, arr64(x["start"]),
                                    arr64(x["stop"]))
        lib.b2nd_free_ctx(ctx)
        if rc != 0:
            return rc
        s = state(lib, out)
        lib.b2nd_free(out)
        return s
    raise ValueError(op)


OPS = ("get_slice", "get_slice", "set_slice", "set_slice", "orthogonal", "sparse", "resize",
       "insert", "append", "delete", "copy", "get_slice_array", "reopen", "vlmeta", "cframe", "set_orthogonal", "concatenate", "concatenate in place",
       "save", "copy rechunked", "save_append")
# Views (b2nd_squeeze, b2nd_expand_dims) run only with B2ND_OPS_VIEWS=1: the reference's
# share the source's super-chunk, ours have one of their own linked to the source's
# chunks, so the super-chunk's fields differ after them (work in progress).
if os.environ.get("B2ND_OPS_VIEWS"):
    OPS += ("squeeze", "expand_dims")


def arguments(rnd, shape, g):
    nd = len(shape)
    start = [rnd.randrange(s) if s else 0 for s in shape]
    stop = [min(s, b + rnd.randrange(1, 2 * c + 1)) for s, b, c in
            zip(shape, start, g["chunkshape"])]
    axis = rnd.randrange(nd)
    grow = [max(1, s + rnd.randrange(-c, 2 * c)) for s, c in zip(shape, g["chunkshape"])]
    at = None
    if rnd.random() < 0.3:
        at = [rnd.randrange(s + 1) for s in shape]
        # resize at a start changes one axis only, as the reference requires
        grow = list(shape)
        grow[axis] = max(1, shape[axis] + rnd.randrange(-g["chunkshape"][axis],
                                                        2 * g["chunkshape"][axis]))
    nitems = 1
    for s in shape:
        nitems *= s
    return {"start": start, "stop": stop, "axis": axis, "new_shape": grow, "at": at,
            "sel": [sorted(rnd.sample(range(s), min(s, 3))) if s else [] for s in shape],
            "coords": [rnd.randrange(nitems) for _ in range(min(nitems, 4))],
            "count": rnd.choice([rnd.randrange(1, g["chunkshape"][axis] + 2),
                                 g["chunkshape"][axis] * rnd.randrange(1, 3)]),
            "where": rnd.randrange(shape[axis] + 1), "vlname": rnd.choice([b"v1", b"v2"]),
            "bytes": bytes(rnd.randrange(256) if rnd.random() < 0.3 else 0
                           for _ in range(20000))}


def trial(libs, rnd, tmp):
    nd = rnd.randrange(1, 4)
    chunk = [rnd.randrange(2, 12) for _ in range(nd)]
    g = {"typesize": rnd.choice([1, 2, 4, 8]), "codec": rnd.choice([0, 1, 5]),
         "clevel": rnd.choice([1, 5, 9]), "filter": rnd.choice([0, 1, 2]),
         "kind": rnd.choice(["sparse-mem", "cframe-mem", "cframe-file", "sframe-dir"]),
         "chunkshape": chunk, "blockshape": [rnd.randrange(1, c + 1) for c in chunk],
         "shape": [rnd.randrange(0, 3 * c + 1) for c in chunk],
         "make": rnd.choice(["from", "zeros", "full", "nans"])}
    if g["make"] == "nans" and g["typesize"] not in (4, 8):
        g["make"] = "zeros"
    n = g["typesize"]
    for s in g["shape"]:
        n *= s
    g["data"] = bytes(rnd.randrange(256) if rnd.random() < 0.4 else 0 for _ in range(n))
    what = "%s %s shape %s chunks %s blocks %s ts %d codec %d filter %d" % (
        g["kind"], g["make"], g["shape"], chunk, g["blockshape"], g["typesize"], g["codec"],
        g["filter"])
    arrays = []
    for i, L in enumerate(libs):
        path = None
        if g["kind"] in ("cframe-file", "sframe-dir"):
            path = os.path.join(tmp, "a%d.b2nd" % i)
            shutil.rmtree(path, ignore_errors=True)
            if os.path.exists(path):
                os.remove(path)
        arrays.append(new_array(L, g, path))
    if arrays[0][0] != arrays[1][0]:
        return ["%s: created %d / %d" % (what, arrays[0][0], arrays[1][0])]
    if arrays[0][0] != 0:
        return []
    made = [fields_check.array_fields(a.value) for _, a in arrays]
    if g["kind"] == "sparse-mem":
        for f in made:
            f.pop("sc.cbytes")
    if made[0] != made[1]:
        return ["%s: created -> %s" % (what, {k: (made[0][k], made[1].get(k)) for k in made[0]
                                              if made[0][k] != made[1].get(k)})]
    done = []
    try:
        for _ in range(10):
            shape = list(fields_check.array_fields(arrays[1][1].value)["shape"])
            op = rnd.choice(OPS)
            x = arguments(rnd, shape, g)
            c = g["chunkshape"][x["axis"]]
            if op == "reopen" and g["kind"] not in ("cframe-file", "sframe-dir"):
                continue
            # Freeing a view of an array with variable-length metalayers crashes the
            # reference (an invalid free).
            if op in ("squeeze", "expand_dims") and fields_check.array_fields(
                    arrays[1][1].value)["sc.nvlmetalayers"]:
                continue
            if op == "append" and shape[x["axis"]] % c:
                continue
            if op in ("insert", "append") and (0 in shape or x["count"] % c):
                continue
            if op == "insert" and x["where"] == shape[x["axis"]] and x["where"] % c:
                continue
            if op == "delete" and x["where"] + x["count"] > shape[x["axis"]]:
                continue
            if op == "resize" and x["at"] is not None and any(
                    a + (n - m) > n for a, n, m in zip(x["at"], shape, x["new_shape"]) if m < n):
                continue
            if g["kind"] == "cframe-mem" and op in ("delete", "resize") and (
                    x["count"] == shape[x["axis"]] or 0 in x["new_shape"]):
                continue
            done.append(op)
            results = [step(L, a, op, x, g, tmp, i)
                       for i, (L, (_, a)) in enumerate(zip(libs, arrays))]
            if os.environ.get("B2ND_OPS_TRACE"):
                print("  %s %s -> %s" % (op, {k: v for k, v in x.items() if k != "bytes"},
                                         [str(r)[:60] for r in results]))
            fields = [fields_check.array_fields(a.value) for _, a in arrays]
            if all(isinstance(r, int) and r < 0 for r in results) or (
                    g["make"] == "zeros" and op in ("resize", "delete")) or op in (
                    "squeeze", "expand_dims"):
                for f in fields:
                    f.pop("sc.current_nchunk")
            if g["kind"] == "sparse-mem" or (
                    op in ("concatenate", "copy rechunked") and g["kind"] == "sframe-dir"):
                for f in fields:
                    if g["kind"] == "sparse-mem":
                        f.pop("sc.cbytes")
                for r in results:
                    if isinstance(r, tuple) and r and isinstance(r[0], dict):
                        r[0].pop("sc.cbytes", None)
            if results[0] != results[1] or fields[0] != fields[1]:
                diff = {k: (fields[0][k], fields[1].get(k)) for k in fields[0]
                        if fields[0][k] != fields[1].get(k)}
                if results[0] != results[1]:
                    r0, r1 = results
                    if isinstance(r0, tuple) and isinstance(r1, tuple) and len(r0) == 3 \
                            and isinstance(r0[0], dict) and isinstance(r1[0], dict):
                        diff["result"] = {k: (r0[0][k], r1[0].get(k)) for k in r0[0]
                                          if r0[0][k] != r1[0].get(k)}
                        diff["result contents/frame"] = (r0[1] == r1[1], r0[2] == r1[2])
                        if os.environ.get("B2ND_OPS_DUMP"):
                            for i, r in enumerate(results):
                                with open(os.path.join(os.environ["B2ND_OPS_DUMP"],
                                                       "b2frame%d" % i), "wb") as fh:
                                    fh.write(r[2] if isinstance(r[2], bytes) else b"")
                    else:
                        diff["result"] = tuple(str(r)[:150] for r in results)
                return ["%s: %s -> %s" % (what, " ".join(done), diff)]
        ends = [state(L.lib, a) for L, (_, a) in zip(libs, arrays)]
        if g["kind"] == "sparse-mem":
            for e in ends:
                e[0].pop("sc.cbytes")
        if os.environ.get("B2ND_OPS_DUMP") and ends[0][2] != ends[1][2]:
            for i, e in enumerate(ends):
                with open(os.path.join(os.environ["B2ND_OPS_DUMP"], "endframe%d" % i), "wb") as fh:
                    fh.write(e[2] if isinstance(e[2], bytes) else b"")
        if ends[0] != ends[1]:
            part = [k for k, (p, q) in zip(("fields", "contents", "frame"),
                                           zip(ends[0], ends[1])) if p != q]
            return ["%s: %s -> %s differ" % (what, " ".join(done), ", ".join(part))]
        return []
    finally:
        for L, (_, a) in zip(libs, arrays):
            L.lib.b2nd_free(a)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    libs = [Lib(load(sys.argv[1])), Lib(load(sys.argv[2]))]
    trials = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    only = os.environ.get("B2ND_OPS_TRIAL")
    diffs = 0
    with tempfile.TemporaryDirectory(prefix="b2nd_ops_check") as tmp:
        for t in range(trials):
            if only is not None and t != int(only):
                continue
            for d in trial(libs, random.Random(seed * 100003 + t), tmp):
                diffs += 1
                print("DIFF trial %d: %s" % (t, d))
    print("b2nd-ops-check: %d sequences of up to 10 calls, %d differ" % (trials, diffs))
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
