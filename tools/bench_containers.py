"""Side-by-side timings of the blosc2-oxide CLI against bloscpack's own CLI (`blpk`,
bloscpack 0.16.0 on python-blosc 1.11.4) and against bcolz (bcolz-zipline) reading a
carray. Not a test: prints a table of best-of-N wall times and ratios.

Run through tools/bench-containers.sh, which prepares the venv and the release build.
Usage: bench_containers.py CLI WORKDIR [--reps N] [--mib SIZE] [--kinds a,b] [--cases a,b]
"""

import argparse
import collections
import collections.abc
import os
import resource
import shutil
import subprocess
import sys
import time

import numpy as np

# bloscpack 0.16 predates Python 3.10, where these aliases left `collections`.
for _name in ("MutableMapping", "Mapping", "Sequence", "Iterable"):
    setattr(collections, _name, getattr(collections.abc, _name))

BLPK = (
    "import collections, collections.abc, sys\n"
    "for n in ('MutableMapping', 'Mapping', 'Sequence', 'Iterable'):\n"
    "    setattr(collections, n, getattr(collections.abc, n))\n"
    "from bloscpack.cli import main\n"
    "sys.argv[0] = 'blpk'\n"
    "main()\n"
)

BCOLZ_READ = (
    "import sys, bcolz\n"
    "bcolz.open(sys.argv[1], mode='r')[:].tofile(sys.argv[2])\n"
)

# name -> (codec, clevel): what both tools are given (None: their shared default).
CASES = {
    "default": (None, None),
    "lz4-5": ("lz4", 5),
    "zstd-5": ("zstd", 5),
    "blosclz-1": ("blosclz", 1),
    "blosclz-5": ("blosclz", 5),
    "blosclz-9": ("blosclz", 9),
}

# name -> (typesize, generator of n bytes)
def _f8(n):
    x = np.arange(n // 8, dtype=np.float64)
    return np.round(np.sin(x / 5000.0) * 1000.0, 2).tobytes()


def _i4(n):
    x = np.arange(n // 4, dtype=np.int64)
    return ((x * 7) // 13 + (x % 17)).astype(np.int32).tobytes()


def _u1(n):
    rng = np.random.default_rng(1)
    words = rng.integers(0, 40, size=n, dtype=np.uint8)
    return (np.frombuffer(b"abcdefghijklmnopqrstuvwxyz .,;:ABCDEFGH\n", np.uint8)[words]).tobytes()


def _rand(n):
    return np.random.default_rng(2).integers(0, 256, size=n, dtype=np.uint8).tobytes()


KINDS = {"f8": (8, _f8), "i4": (4, _i4), "text": (1, _u1), "random": (8, _rand)}


def best(cmd, reps, before=None):
    """Wall time and CPU time (user + system) of the fastest of `reps` runs of `cmd`,
    `before` run untimed before each."""
    runs = []
    for _ in range(reps):
        if before:
            before()
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        dt = time.perf_counter() - t
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        if r.returncode != 0:
            sys.exit(f"failed: {' '.join(map(str, cmd))}\n{r.stderr.decode()}")
        cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        runs.append((dt, cpu))
    return min(runs)


def rm(*paths):
    def go():
        for p in paths:
            if os.path.isdir(p):
                shutil.rmtree(p)
            elif os.path.exists(p):
                os.remove(p)
    return go


def load():
    return os.getloadavg()[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("work")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--mib", type=int, default=1024)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--no-bcolz", action="store_true")
    a = ap.parse_args()
    py = sys.executable
    os.makedirs(a.work, exist_ok=True)
    n = a.mib << 20
    blpk = [py, "-c", BLPK, "--force"]
    ours = [a.cli, "--quiet"]
    print(f"# {a.mib} MiB per input, best of {a.reps}, cores {os.cpu_count()}, "
          f"start load {load():.2f}")
    t0, c0 = best([py, "-c", BLPK, "--version"], a.reps)
    print(f"# blpk start-up (python + imports, --version): {t0:.3f} s wall, {c0:.3f} s CPU")
    print("# times in s: wall/CPU (user+sys) of the fastest run; x = blpk / ours")
    print(f"{'kind':6} {'case':9} {'ratio':>5} | {'blpk c':>11} {'ours c':>11} {'x wall':>6} "
          f"{'x cpu':>5} | {'blpk d':>11} {'ours d':>11} {'x wall':>6} {'x cpu':>5} | "
          f"{'cp':>11} load")
    for kind in a.kinds.split(","):
        ts, gen = KINDS[kind]
        src = os.path.join(a.work, f"{kind}.bin")
        if not os.path.exists(src) or os.path.getsize(src) != n:
            with open(src, "wb") as f:
                f.write(gen(n))
        cp = best(["cp", src, src + ".cp"], a.reps, rm(src + ".cp"))
        cps = f"{cp[0]:5.2f}/{cp[1]:5.2f}"
        rm(src + ".cp")()
        for case in a.cases.split(","):
            codec, clevel = CASES[case]
            bo, oo = [], []
            if codec:
                bo += ["-c", codec]
                oo += ["--codec", codec]
            if clevel is not None:
                bo += ["-l", str(clevel)]
                oo += ["--clevel", str(clevel)]
            bfile = os.path.join(a.work, f"{kind}-{case}.b.blp")
            ofile = os.path.join(a.work, f"{kind}-{case}.o.blp")
            back = os.path.join(a.work, "back.bin")
            bc = best(blpk + ["compress", "-t", str(ts)] + bo + [src, bfile], a.reps, rm(bfile))
            oc = best(ours + ["compress", "--typesize", str(ts)] + oo + [src, ofile],
                      a.reps, rm(ofile))
            bd = best(blpk + ["decompress", bfile, back], a.reps, rm(back))
            od = best(ours + ["decompress", bfile, back], a.reps, rm(back))
            with open(back, "rb") as f, open(src, "rb") as g:
                if f.read() != g.read():
                    sys.exit(f"{kind} {case}: our decoded bytes differ")
            rm(back)()
            ratio = n / os.path.getsize(bfile)

            def f(t):
                return f"{t[0]:5.2f}/{t[1]:5.2f}"

            print(f"{kind:6} {case:9} {ratio:5.2f} | {f(bc)} {f(oc)} {bc[0] / oc[0]:6.2f} "
                  f"{bc[1] / oc[1]:5.2f} | {f(bd)} {f(od)} {bd[0] / od[0]:6.2f} "
                  f"{bd[1] / od[1]:5.2f} | {cps} {load():.2f}", flush=True)
            rm(bfile, ofile)()
    if not a.no_bcolz:
        bench_bcolz(a, py, ours, n)
    print(f"# end load {load():.2f}")


def bench_bcolz(a, py, ours, n):
    import bcolz

    print("# bcolz: a subprocess that opens the carray and writes carray[:] to a file, vs "
          "ours `decompress`; in-process carray[:] (no start-up, no file) for comparison")
    print(f"{'kind':6} {'case':9} {'ratio':>5} | {'bcolz':>11} {'ours':>11} {'x wall':>6} "
          f"{'x cpu':>5} | {'bcolz[:]':>8} {'x wall':>6} | load")
    for kind in a.kinds.split(","):
        ts, gen = KINDS[kind]
        src = os.path.join(a.work, f"{kind}.bin")
        dtype = {8: "<f8", 4: "<i4", 1: "|u1"}[ts] if kind != "random" else "<u8"
        arr = np.fromfile(src, dtype=dtype)
        for cname, clevel in (("lz4", 5), ("blosclz", 5), ("zstd", 5)):
            d = os.path.join(a.work, f"{kind}-{cname}.bcolz")
            rm(d)()
            bcolz.carray(arr, rootdir=d, mode="w",
                         cparams=bcolz.cparams(clevel=clevel, cname=cname)).flush()
            back = os.path.join(a.work, "back.bin")
            bt = best([py, "-c", BCOLZ_READ, d, back], a.reps, rm(back))
            ot = best(ours + ["decompress", d, back], a.reps, rm(back))
            with open(back, "rb") as f:
                if f.read() != arr.tobytes():
                    sys.exit(f"bcolz {kind} {cname}: our decoded bytes differ")
            rm(back)()
            c = bcolz.open(d, mode="r")
            inproc = []
            for _ in range(a.reps):
                t = time.perf_counter()
                c[:]
                inproc.append(time.perf_counter() - t)
            ip = min(inproc)
            ratio = n / sum(os.path.getsize(os.path.join(r, f))
                            for r, _, fs in os.walk(d) for f in fs)
            print(f"{kind:6} {cname + '-5':9} {ratio:5.2f} | {bt[0]:5.2f}/{bt[1]:5.2f} "
                  f"{ot[0]:5.2f}/{ot[1]:5.2f} {bt[0] / ot[0]:6.2f} {bt[1] / ot[1]:5.2f} | "
                  f"{ip:8.3f} {ip / ot[0]:6.2f} | {load():.2f}", flush=True)
            rm(d)()


if __name__ == "__main__":
    main()
