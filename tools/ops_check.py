#!/usr/bin/env python3
"""Random super-chunk operation sequences, ours against the reference.

Loads our libblosc2 and the reference's into one process (ctypes) and runs the same
random sequences of C API calls on a super-chunk of each library, on every storage kind
(in memory, in-memory frame, frame file, sparse directory): appends, inserts, updates
(data chunks and zero chunks), deletes, decompressions, get_chunk, get/set slices,
reorders, copies (with the same and with other parameters), fill_special,
metalayers (added or updated) and variable-length ones (added, updated or deleted), lazy
chunks, frame lengths, frames written to a file or appended to one (the file's bytes and
the super-chunk opened from it compared) and (files and directories) closing and opening again. After each
call the return values must be equal, and so must the public fields of both
``blosc2_schunk`` structs (as tools/fields_check.py reads them); at the end of each
sequence the frames ``blosc2_schunk_to_buffer`` gives must be byte-identical.

Sequences that reach the reference's bugs are not generated: chunks are all of the chunk
size (it writes index entries for special chunks of other sizes that it cannot read
back), super-chunks without a frame get no special chunks (it counts their compressed
bytes when they come in, not when they go), an in-memory frame whose chunks were all
deleted gets no new chunks (it writes them after a gap of the deleted chunks' length
whose bytes its frame leaves uninitialised), and fill_special uses zeros and NaNs only
(its uninitialised chunks read whatever the heap held), lazy chunks of memcpyed chunks are
not compared (the reference's carry block starts from uninitialised memory; ours are the
whole chunk), and metalayers go into frames
only as their first operation (the reference corrupts a frame that held chunks when adding
one).

usage: ops_check.py OURS_SO REFERENCE_SO [TRIALS] [SEED]
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


class CParams(ctypes.Structure):
    """blosc2_cparams passed by value (136 bytes)."""
    _fields_ = [("raw", ctypes.c_uint64 * 17)]


def cparams_bytes(typesize, codec, blocksize, filt):
    """A blosc2_cparams: codec, clevel 5, one thread, split mode 4, one filter."""
    cp = (ctypes.c_ubyte * 136)()
    cp[0], cp[2] = codec, 5
    struct.pack_into("<ihxxii", cp, 8, typesize, 1, blocksize, 4)
    cp[32 + 5] = filt
    return cp


class Case:
    """One super-chunk of one library, with the buffers its storage points to."""

    def __init__(self, lib, kind, path, cp):
        self.lib, self.keep, self.path = lib, [cp], path
        self.scratch = None
        dp = (ctypes.c_ubyte * 64)()
        struct.pack_into("<h", dp, 0, 1)
        st = (ctypes.c_ubyte * 40)()
        st[0] = kind in ("cframe-mem", "cframe-file")
        url = ctypes.create_string_buffer(path.encode()) if path else None
        struct.pack_into("<QQQ", st, 8, ctypes.addressof(url) if url else 0,
                         ctypes.addressof(cp), ctypes.addressof(dp))
        self.keep += [dp, st, url]
        self.sc = ctypes.c_void_p(lib.blosc2_schunk_new(ctypes.byref(st)))

    def fields(self):
        return fields_check.schunk_fields(self.sc.value)

    def frame(self):
        p, nf = ctypes.c_void_p(), ctypes.c_bool()
        n = self.lib.blosc2_schunk_to_buffer(self.sc, ctypes.byref(p), ctypes.byref(nf))
        return ctypes.string_at(p, n) if n > 0 else n


def load(path):
    lib = fields_check.load(path)
    lib.blosc2_schunk_new.restype = ctypes.c_void_p
    lib.blosc2_schunk_copy.restype = ctypes.c_void_p
    lib.blosc2_schunk_open.restype = ctypes.c_void_p
    lib.blosc2_schunk_open_offset.restype = ctypes.c_void_p
    lib.blosc2_create_cctx.restype = ctypes.c_void_p
    lib.blosc2_schunk_to_buffer.restype = ctypes.c_int64
    return lib


def step(case, op, a, p):
    """Runs `op` with arguments `a` on one library's super-chunk; its result."""
    lib, sc = case.lib, case.sc
    i64 = ctypes.c_int64
    if op == "append":
        return lib.blosc2_schunk_append_buffer(sc, a["data"], ctypes.c_int32(len(a["data"])))
    if op in ("insert", "update", "insert zeros", "update zeros"):
        size = len(a["data"])
        chunk = ctypes.create_string_buffer(size + 64)
        if op.endswith("zeros"):
            lib.blosc2_chunk_zeros(CParams.from_buffer_copy(p), ctypes.c_int32(size), chunk,
                                   ctypes.c_int32(size + 64))
        else:
            cctx = ctypes.c_void_p(lib.blosc2_create_cctx(CParams.from_buffer_copy(p)))
            lib.blosc2_compress_ctx(cctx, a["data"], ctypes.c_int32(size), chunk,
                                    ctypes.c_int32(size + 64))
            lib.blosc2_free_ctx(cctx)
        call = lib.blosc2_schunk_insert_chunk if op.startswith("insert") \
            else lib.blosc2_schunk_update_chunk
        return call(sc, i64(a["k"]), chunk, ctypes.c_bool(True))
    if op == "delete":
        return lib.blosc2_schunk_delete_chunk(sc, i64(a["k"]))
    if op == "decompress":
        out = ctypes.create_string_buffer(len(a["data"]))
        rc = lib.blosc2_schunk_decompress_chunk(sc, i64(a["k"]), out, ctypes.c_int32(len(out)))
        return rc, out.raw if rc > 0 else None
    if op == "get_chunk":
        c, nf = ctypes.c_void_p(), ctypes.c_bool()
        rc = lib.blosc2_schunk_get_chunk(sc, i64(a["k"]), ctypes.byref(c), ctypes.byref(nf))
        return rc, ctypes.string_at(c, rc) if rc > 0 else None
    if op in ("get_slice", "set_slice"):
        buf = ctypes.create_string_buffer(a["slice_data"], max(1, len(a["slice_data"])))
        call = lib.blosc2_schunk_get_slice_buffer if op == "get_slice" \
            else lib.blosc2_schunk_set_slice_buffer
        rc = call(sc, i64(a["start"]), i64(a["stop"]), buf)
        return rc, buf.raw if op == "get_slice" and rc == 0 else None
    if op == "reorder":
        order = (ctypes.c_int64 * max(1, len(a["order"])))(*a["order"])
        return lib.blosc2_schunk_reorder_offsets(sc, order)
    if op in ("copy", "copy recompressed"):
        st = (ctypes.c_ubyte * 40)()
        cp = cparams_bytes(a["typesize"], a["codec2"], 0, 1) if op != "copy" else p
        struct.pack_into("<Q", st, 16, ctypes.addressof(cp))
        copy = lib.blosc2_schunk_copy(sc, ctypes.byref(st))
        if not copy:
            return None
        f = fields_check.schunk_fields(copy)
        lib.blosc2_schunk_free(ctypes.c_void_p(copy))
        return f
    if op == "meta":
        name, content = a["vlname"], a["slice_data"][:8].ljust(8, b"-")
        rc = lib.blosc2_meta_update(sc, name, content, len(content))
        return rc if rc >= 0 else (rc, lib.blosc2_meta_add(sc, name, content, len(content)))
    if op == "vlmeta delete":
        return lib.blosc2_vlmeta_delete(sc, a["vlname"])
    if op == "lazychunk":
        c, nf = ctypes.c_void_p(), ctypes.c_bool()
        rc = lib.blosc2_schunk_get_lazychunk(sc, i64(a["k"]), ctypes.byref(c), ctypes.byref(nf))
        if rc >= 32 and ctypes.string_at(c, 3)[2] & 0x02:
            return "memcpyed"
        return rc
    if op == "frame_len":
        return lib.blosc2_schunk_frame_len(sc)
    if op == "vlmeta":
        name, content = a["vlname"], a["slice_data"][:40]
        if lib.blosc2_vlmeta_exists(sc, name) >= 0:
            return lib.blosc2_vlmeta_update(sc, name, content, len(content), None)
        return lib.blosc2_vlmeta_add(sc, name, content, len(content), None)
    if op == "reopen":
        lib.blosc2_schunk_free(sc)
        case.sc = ctypes.c_void_p(lib.blosc2_schunk_open(case.path.encode()))
        return case.sc.value is not None
    if op in ("to_file", "append_file"):
        path = case.scratch
        if op == "to_file" and os.path.exists(path):
            os.remove(path)
        call = lib.blosc2_schunk_to_file if op == "to_file" else lib.blosc2_schunk_append_file
        at = call(sc, path.encode())
        if at < 0:
            return at
        back = lib.blosc2_schunk_open_offset(path.encode(), i64(0 if op == "to_file" else at))
        if not back:
            return at, None
        f = fields_check.schunk_fields(back)
        lib.blosc2_schunk_free(ctypes.c_void_p(back))
        return at, f, open(path, "rb").read()
    if op == "fill":
        return lib.blosc2_schunk_fill_special(sc, i64(a["nitems"]), ctypes.c_int(a["special"]),
                                              ctypes.c_int32(a["chunksize"]))
    raise ValueError(op)


OPS = ("append", "append", "append", "insert", "update", "insert zeros", "update zeros",
       "delete", "decompress", "get_chunk", "get_slice", "set_slice", "reorder", "copy",
       "copy recompressed", "fill", "reopen", "vlmeta", "vlmeta delete", "meta", "lazychunk",
       "frame_len", "to_file", "append_file")


def trial(libs, rnd, tmp, steps):
    """One random sequence on every storage kind; a list of differences."""
    typesize = rnd.choice([1, 2, 4, 8])
    codec, blocksize, filt = rnd.choice([0, 1, 5]), rnd.choice([0, 0, 1024, 4096]), \
        rnd.choice([0, 1, 2])
    cs = rnd.choice([1000, 4000, 10000]) // typesize * typesize
    kind = rnd.choice(["sparse-mem", "cframe-mem", "cframe-file", "sframe-dir"])
    cases = []
    for i, lib in enumerate(libs):
        path = None
        if kind in ("cframe-file", "sframe-dir"):
            path = os.path.join(tmp, "ops%d.b2" % i)
            shutil.rmtree(path, ignore_errors=True)
            if os.path.exists(path):
                os.remove(path)
        cases.append(Case(lib, kind, path, cparams_bytes(typesize, codec, blocksize, filt)))
        cases[-1].scratch = os.path.join(tmp, "file%d.b2frame" % i)
        if os.path.exists(cases[-1].scratch):
            os.remove(cases[-1].scratch)
    what = "%s typesize %d codec %d blocksize %d filter %d chunk %d" % (
        kind, typesize, codec, blocksize, filt, cs)
    done = []
    emptied = False
    for _ in range(steps):
        op = rnd.choice(OPS)
        n = cases[1].fields()["nchunks"]
        total = cases[1].fields()["nbytes"] // typesize
        start = rnd.randrange(total + 1)
        stop = min(total, start + rnd.randrange(1, 3 * cs // typesize))
        a = {"data": bytes(rnd.randrange(4) if rnd.random() < 0.5 else 0 for _ in range(cs)),
             "k": rnd.randrange(n + 1), "start": start, "stop": stop,
             "slice_data": bytes(rnd.randrange(256) for _ in range((stop - start) * typesize)),
             "order": rnd.sample(range(n), n), "typesize": typesize,
             "codec2": rnd.choice([0, 1, 5]), "special": rnd.choice([1, 2]),
             "nitems": rnd.randrange(0, 5) * (cs // typesize), "chunksize": cs,
             "vlname": rnd.choice([b"v1", b"v2"])}
        if op == "fill" and (n or (a["special"] == 2 and typesize not in (4, 8))):
            continue
        if kind == "sparse-mem" and op in ("insert zeros", "update zeros", "fill"):
            continue
        if op == "reopen" and kind not in ("cframe-file", "sframe-dir"):
            continue
        # Metalayers go into a frame's header: the reference corrupts a frame that ever held
        # chunks when adding one (its next to_buffer fails, -23, and opening it crashes).
        fresh = cases[1].fields()["nbytes"] == 0 and cases[1].fields()["cbytes"] == 0
        if op == "meta" and kind != "sparse-mem" and not (fresh and not done):
            continue
        if emptied and op in ("append", "insert", "insert zeros", "fill"):
            continue
        emptied = emptied or (kind == "cframe-mem" and op == "delete" and n == 1)
        done.append(op)
        results = [step(c, op, a, c.keep[0]) for c in cases]
        fields = [c.fields() for c in cases]
        if os.environ.get("OPS_TRACE"):
            print("  %s k=%d start=%d stop=%d -> %s %s" % (
                op, a["k"], start, stop, [str(r)[:40] for r in results],
                [(f["nchunks"], f["current_nchunk"], f["cbytes"]) for f in fields]),
                [len(f) if isinstance(f, bytes) else f for f in (c.frame() for c in cases)]
                if os.environ.get("OPS_TRACE") == "frames" else "")
        if results[0] != results[1] or fields[0] != fields[1]:
            diff = {k: (fields[0][k], fields[1].get(k)) for k in fields[0]
                    if fields[0][k] != fields[1].get(k)}
            if results[0] != results[1]:
                if all(isinstance(r, dict) for r in results):
                    diff["result"] = {k: (results[0][k], results[1].get(k)) for k in results[0]
                                      if results[0][k] != results[1].get(k)}
                else:
                    diff["result"] = tuple(str(r)[:120] for r in results)
            return ["%s: %s -> %s" % (what, " ".join(done), diff)]
    frames = [c.frame() for c in cases]
    if os.environ.get("OPS_DUMP") and frames[0] != frames[1]:
        for i, f in enumerate(frames):
            if isinstance(f, bytes):
                open(os.path.join(os.environ["OPS_DUMP"], "frame%d" % i), "wb").write(f)
    if frames[0] != frames[1]:
        return ["%s: %s -> frames differ (%s / %s bytes)" % (
            what, " ".join(done), *(len(f) if isinstance(f, bytes) else f for f in frames))]
    return []


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    libs = [load(sys.argv[1]), load(sys.argv[2])]
    trials = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    diffs = []
    with tempfile.TemporaryDirectory(prefix="ops_check") as tmp:
        only = os.environ.get("OPS_TRIAL")
        for t in range(trials):
            if only is not None and t != int(only):
                continue
            for d in trial(libs, random.Random(seed * 100003 + t), tmp, 12):
                diffs.append(d)
                print("DIFF trial %d: %s" % (t, d))
    print("ops-check: %d sequences of up to 12 calls, %d differ" % (trials, len(diffs)))
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
