#!/usr/bin/env python3
"""Cross tests of the blosc2-oxide CLI against the real producers of the old containers.

Files written by the CLI must be read by bloscpack 0.16.0 (python-blosc 1.11.4) and by
bcolz; files written by them must be read by the CLI, byte for byte. Every bloscpack
checksum, with and without offsets and metadata, several codecs, filters, dtypes and
shapes. Prints one line per case and `N passed, M failed` last; exits non-zero on any
failure.

usage: containers_check.py CLI WORKDIR
"""

import collections
import collections.abc
import json
import os
import shutil
import subprocess
import sys
import traceback

# bloscpack 0.16 predates Python 3.10, where these aliases left `collections`.
for _name in ("MutableMapping", "Mapping", "Sequence", "Iterable"):
    setattr(collections, _name, getattr(collections.abc, _name))

import numpy as np  # noqa: E402
import bloscpack  # noqa: E402
from bloscpack.append import append as bloscpack_append  # noqa: E402

try:
    import bcolz  # noqa: E402
except Exception as exc:  # pragma: no cover - reported, not hidden
    bcolz = None
    BCOLZ_ERROR = repr(exc)

CLI, WORK = sys.argv[1], sys.argv[2]
RESULTS = {"PASS": 0, "FAIL": 0}
CHECKSUMS = ["None", "adler32", "crc32", "md5", "sha1", "sha224", "sha256", "sha384", "sha512"]


def path(name):
    return os.path.join(WORK, name)


def cli(*args):
    r = subprocess.run([CLI, "--quiet", *map(str, args)], capture_output=True)
    if r.returncode != 0:
        raise AssertionError(f"CLI {' '.join(map(str, args))} exited {r.returncode}: "
                             f"{r.stderr.decode(errors='replace').strip()[-300:]}")
    return r.stdout


def case(name, fn):
    try:
        fn()
        RESULTS["PASS"] += 1
        print(f"PASS {name}")
    except Exception:
        RESULTS["FAIL"] += 1
        print(f"FAIL {name}\n" + traceback.format_exc(limit=3))


def data(kind, n):
    rng = np.random.default_rng(n)
    if kind == "text":
        words = [b"blosc ", b"oxide ", b"pack ", b"chunk ", b"\n"]
        return b"".join(words[i] for i in rng.integers(0, len(words), n // 4))[:n]
    if kind == "ramp":
        return np.arange(n // 8, dtype="<i8").tobytes() + b"x" * (n % 8)
    return rng.integers(0, 256, n, dtype=np.uint8).tobytes()


def raw(name, payload):
    p = path(name)
    with open(p, "wb") as f:
        f.write(payload)
    return p


def decompressed(src):
    out = path("out.bin")
    if os.path.exists(out):
        os.unlink(out)
    cli("decompress", src, out)
    with open(out, "rb") as f:
        return f.read()


# --- ours -> bloscpack ---------------------------------------------------------

def ours_to_bloscpack(checksum, offsets, meta, codec, flt, typesize, kind, n):
    payload = data(kind, n)
    src = raw("in.bin", payload)
    out = path("ours.blp")
    args = ["compress", src, out, "--force", "--checksum", checksum, "--codec", codec,
            "--filter", flt, "--typesize", typesize, "--chunk-size", "20000"]
    if not offsets:
        args.append("--no-offsets")
    if meta is not None:
        args += ["--meta", json.dumps(meta)]
    cli(*args)
    got, got_meta = bloscpack.unpack_bytes_from_file(out)
    assert got == payload, "bloscpack read different bytes"
    assert got_meta == meta, f"metadata {got_meta!r} != {meta!r}"
    assert decompressed(out) == payload


def ours_ndarray_to_bloscpack(dtype, shape):
    arr = np.arange(int(np.prod(shape))).astype(dtype).reshape(shape)
    src = raw("arr.bin", arr.tobytes())
    out = path("ours_nd.blp")
    cli("compress", src, out, "--force", "--dtype", np.dtype(dtype).str,
        "--shape", ",".join(map(str, shape)), "--chunk-size", "4096", "--checksum", "sha1")
    back = bloscpack.unpack_ndarray_from_file(out)
    assert back.dtype == arr.dtype and back.shape == arr.shape, (back.dtype, back.shape)
    assert np.array_equal(back, arr)


def bloscpack_appends_to_ours():
    payload = data("ramp", 50_000)
    out = path("ours_app.blp")
    cli("compress", raw("in.bin", payload), out, "--force", "--chunk-size", "8000",
        "--typesize", "8")
    more = data("text", 30_000)
    bloscpack_append(out, raw("more.bin", more))
    assert bloscpack.unpack_bytes_from_file(out)[0] == payload + more
    assert decompressed(out) == payload + more
    cli("verify", out)


# --- bloscpack -> ours ---------------------------------------------------------

def bloscpack_to_ours(checksum, offsets, meta, cname, shuffle, typesize, kind, n):
    payload = data(kind, n)
    out = path("theirs.blp")
    blosc_args = bloscpack.BloscArgs(typesize=typesize, clevel=5, shuffle=shuffle, cname=cname)
    bp_args = bloscpack.BloscpackArgs(offsets=offsets, checksum=checksum)
    bloscpack.pack_bytes_to_file(payload, out, chunk_size=30_000, blosc_args=blosc_args,
                                 bloscpack_args=bp_args, metadata=meta)
    assert decompressed(out) == payload
    info = json.loads(cli("info", out, "--json"))
    assert info["checksum"] == checksum and info["offsets"] == offsets, info
    assert info.get("metadata") == meta
    cli("verify", out)


def bloscpack_ndarray_to_ours(arr):
    out = path("theirs_nd.blp")
    bloscpack.pack_ndarray_to_file(arr, out, chunk_size=arr.dtype.itemsize * 1000)
    assert decompressed(out) == arr.tobytes(order="C")
    info = json.loads(cli("info", out, "--json"))
    assert info["shape"] == list(arr.shape), info


def ours_appended_file_read_by_bloscpack():
    payload = data("ramp", 64_000)
    theirs = path("theirs_app.blp")
    bloscpack.pack_bytes_to_file(payload, theirs, chunk_size=10_000)
    bloscpack_append(theirs, raw("more.bin", payload[:25_000]))
    assert decompressed(theirs) == payload + payload[:25_000]


# --- bcolz ---------------------------------------------------------------------

def ours_to_bcolz(dtype, shape, codec, flt, chunk_size):
    arr = (np.arange(int(np.prod(shape))) * 3).astype(dtype).reshape(shape)
    out = path("ours.bcolz")
    cli("compress", raw("arr.bin", arr.tobytes()), out, "--force", "--dtype",
        np.dtype(dtype).str, "--shape", ",".join(map(str, shape)), "--codec", codec,
        "--filter", flt, "--chunk-size", chunk_size)
    c = bcolz.open(out, mode="r")
    assert c.dtype == arr.dtype and c.shape == arr.shape, (c.dtype, c.shape)
    assert np.array_equal(c[:], arr)
    c = bcolz.open(out, mode="a")
    c.append(arr[:7])
    c.flush()
    assert decompressed(out) == np.concatenate([arr, arr[:7]]).tobytes()


def bcolz_to_ours(dtype, shape, cparams, chunklen):
    arr = (np.arange(int(np.prod(shape))) % 251).astype(dtype).reshape(shape)
    out = path("theirs.bcolz")
    shutil.rmtree(out, ignore_errors=True)
    c = bcolz.carray(arr[:len(arr) // 2], rootdir=out, mode="w", chunklen=chunklen,
                     cparams=bcolz.cparams(**cparams))
    c.append(arr[len(arr) // 2:])
    c.flush()
    assert decompressed(out) == arr.tobytes()
    cli("verify", out)


def bcolz_ctable_to_ours():
    out = path("theirs_ct.bcolz")
    shutil.rmtree(out, ignore_errors=True)
    n = 12_345
    cols = [np.arange(n, dtype="<i4"), np.linspace(0, 1, n), np.array([b"ab%d" % (i % 97) for i in range(n)], dtype="S5")]
    t = bcolz.ctable(cols, names=["i", "f", "s"], rootdir=out, mode="w", chunklen=1000)
    t.flush()
    for name, col in zip(["i", "f", "s"], cols):
        assert decompressed(os.path.join(out, name)) == col.tobytes(), name
    conv = path("ct_b2nd")
    cli("convert", out, conv, "--force")
    for name, col in zip(["i", "f", "s"], cols):
        assert decompressed(os.path.join(conv, name + ".b2nd")) == col.tobytes(), name
    cli("verify", out)


def main():
    os.makedirs(WORK, exist_ok=True)
    meta = {"name": "x", "list": [1, 2, 3], "nested": {"k": 1.5}}
    codecs = ["blosclz", "lz4", "lz4hc", "zlib", "zstd"]
    filters = ["shuffle", "bitshuffle", "none"]
    for i, cs in enumerate(CHECKSUMS):
        for offsets in (True, False):
            for m in (None, meta):
                codec = codecs[i % len(codecs)]
                flt = filters[(i + offsets) % len(filters)]
                ts = [1, 4, 8][(i + (m is None)) % 3]
                kind = ["text", "ramp", "random"][i % 3]
                n = [100_000, 65_537, 0, 1, 19_999][(i + offsets) % 5]
                case(f"ours->bloscpack {cs} offsets={offsets} meta={m is not None} {codec} {flt} ts={ts} {kind} n={n}",
                     lambda: ours_to_bloscpack(cs, offsets, m, codec, flt, ts, kind, n))
                cname = codecs[(i + 2) % len(codecs)]
                shuffle = (i + (m is None)) % 2 == 0
                case(f"bloscpack->ours {cs} offsets={offsets} meta={m is not None} {cname} shuffle={shuffle} ts={ts} n={n}",
                     lambda: bloscpack_to_ours(cs, offsets, m, cname, shuffle, ts, kind, n))
    for dtype, shape in [("<f8", (300, 200)), ("<i2", (123, 77)), ("|u1", (40, 30, 20)),
                         ("<u4", (1000,)), ("<c16", (10, 10))]:
        case(f"ours ndarray->bloscpack {dtype} {shape}", lambda: ours_ndarray_to_bloscpack(dtype, shape))
    rng = np.random.default_rng(7)
    arrays = [rng.random((300, 200)), np.asfortranarray(np.arange(123 * 77, dtype="<i2").reshape(123, 77)),
              np.zeros(5000, dtype=[("x", "<i4"), ("y", "<f4")]), rng.integers(0, 255, (40, 30, 20), dtype="u1"),
              np.array([b"abc", b"de", b"fghij"] * 100, dtype="S5"),
              np.asfortranarray(rng.random((7, 11, 13)).astype("<f4"))]
    for arr in arrays:
        case(f"bloscpack ndarray->ours {arr.dtype} {arr.shape} {'F' if np.isfortran(arr) else 'C'}",
             lambda: bloscpack_ndarray_to_ours(arr))
    case("bloscpack appends to ours", bloscpack_appends_to_ours)
    case("bloscpack-appended file read by ours", ours_appended_file_read_by_bloscpack)
    if bcolz is None:
        RESULTS["FAIL"] += 1
        print(f"FAIL bcolz did not import: {BCOLZ_ERROR}")
    else:
        for dtype, shape, codec, flt, cs in [("<i8", (100_000,), "lz4", "shuffle", "256K"),
                                             ("<f8", (2500, 3), "zstd", "bitshuffle", "24000"),
                                             ("|S10", (3000,), "zlib", "none", "64K"),
                                             ("<i4", (8010,), "blosclz", "shuffle", "8K"),
                                             ("|u1", (100,), "lz4hc", "none", "1M")]:
            case(f"ours->bcolz {dtype} {shape} {codec} {flt}", lambda: ours_to_bcolz(dtype, shape, codec, flt, cs))
        for dtype, shape, cp, cl in [("<i8", (100_000,), {}, None),
                                     ("<f8", (2500, 3), {"clevel": 9, "shuffle": 2, "cname": "lz4"}, 1000),
                                     ("<i4", (8010,), {"cname": "zstd"}, 2048),
                                     ("|S10", (3000,), {"clevel": 3, "shuffle": 0, "cname": "zlib"}, None)]:
            case(f"bcolz->ours {dtype} {shape} {cp}", lambda: bcolz_to_ours(dtype, shape, cp, cl))
        case("bcolz ctable->ours (+ convert to b2nd)", bcolz_ctable_to_ours)
    print(f"containers-check: {RESULTS['PASS']} passed, {RESULTS['FAIL']} failed")
    return 1 if RESULTS["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
