//! `blosc2-oxide`: decompress, compress, inspect, verify and convert every Blosc container
//! (raw chunks, frames, sparse frames, b2nd arrays, Bloscpack files, bcolz carrays and
//! ctables).

#![forbid(unsafe_code)]

mod bgwrite;
mod decode;
mod detect;
mod encode;
mod info;
mod progress;

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use blosc2::bloscpack::Checksum;
use clap::{Args, Parser, Subcommand};

use detect::{detect, Format};
use encode::{EncodeOpts, OutFormat};
use progress::Progress;

const EXAMPLES: &str = "\
Examples:
  blosc2-oxide decompress data.blp data.bin            # Bloscpack file -> raw bytes
  blosc2-oxide decompress table.bcolz/price price.bin  # one ctable column (C order)
  blosc2-oxide compress data.bin data.b2frame --codec zstd --clevel 5 --typesize 8
  blosc2-oxide compress data.bin data.blp --checksum sha256 --chunk-size 4M
  blosc2-oxide compress img.raw img.b2nd --shape 1024,768 --dtype '<u2'
  blosc2-oxide info data.b2nd --json
  blosc2-oxide verify archive.blp
  blosc2-oxide convert old.blp new.b2frame
  blosc2-oxide convert table.bcolz columns/            # one .b2nd array per column";

/// Decompress, compress, inspect, verify and convert Blosc containers.
#[derive(Parser)]
#[command(name = "blosc2-oxide", version, after_help = EXAMPLES)]
struct Cli {
    /// No progress bar.
    #[arg(short, long, global = true)]
    quiet: bool,
    /// Worker threads (default: all cores).
    #[arg(long, global = true)]
    nthreads: Option<usize>,
    /// Memory for reordering a Fortran-ordered .blp array to C order (suffixes K, M, G);
    /// a larger array is decoded once per band of this size.
    #[arg(long, global = true, value_parser = parse_size, default_value = "1G")]
    fortran_band: u64,
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Write the decoded bytes of a container (C order) to OUTPUT.
    Decompress {
        /// A chunk, .b2frame, sparse-frame dir, b2nd array, .blp, bcolz carray dir.
        input: PathBuf,
        /// Output file ("-" for standard output).
        output: PathBuf,
    },
    /// Compress the bytes of INPUT into a container.
    Compress {
        /// Input file of raw bytes.
        input: PathBuf,
        /// Output path; its extension (.b2frame, .b2nd, .blp, .bcolz) picks the format.
        output: PathBuf,
        #[command(flatten)]
        opts: CompressArgs,
    },
    /// Describe a container (format, codec, sizes, shapes, metadata, checksums).
    Info {
        /// The container.
        path: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Check every checksum and decode every chunk.
    Verify {
        /// The container.
        path: PathBuf,
    },
    /// Convert between containers (a bcolz ctable becomes a directory of .b2nd arrays).
    Convert {
        /// The source container.
        input: PathBuf,
        /// The destination (format from --format or the extension).
        output: PathBuf,
        #[command(flatten)]
        opts: CompressArgs,
    },
}

#[derive(Args, Clone)]
struct CompressArgs {
    /// Output format (default: from the output's extension).
    #[arg(long, value_enum)]
    format: Option<OutFormat>,
    /// Codec: blosclz, lz4, lz4hc, zlib, zstd.
    #[arg(long)]
    codec: Option<String>,
    /// Compression level 0-9.
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=9))]
    clevel: Option<u8>,
    /// Filters in order: shuffle, bitshuffle, delta, trunc_prec, none (repeatable).
    #[arg(long = "filter")]
    filters: Vec<String>,
    /// Item size in bytes.
    #[arg(long)]
    typesize: Option<usize>,
    /// Uncompressed bytes per chunk (suffixes K, M, G).
    #[arg(long, value_parser = parse_size)]
    chunk_size: Option<u64>,
    /// Array shape, e.g. 100,200.
    #[arg(long, value_delimiter = ',')]
    shape: Option<Vec<i64>>,
    /// b2nd chunk shape.
    #[arg(long, value_delimiter = ',')]
    chunkshape: Option<Vec<i32>>,
    /// b2nd block shape.
    #[arg(long, value_delimiter = ',')]
    blockshape: Option<Vec<i32>>,
    /// numpy dtype, e.g. '<f8', '|S6'.
    #[arg(long)]
    dtype: Option<String>,
    /// Bloscpack chunk checksum: none, adler32, crc32, md5, sha1, sha224..sha512.
    #[arg(long)]
    checksum: Option<String>,
    /// Bloscpack: no offsets table.
    #[arg(long)]
    no_offsets: bool,
    /// Bloscpack: chunks that can be appended later.
    #[arg(long)]
    max_app_chunks: Option<i64>,
    /// Bloscpack: JSON metadata to store.
    #[arg(long)]
    meta: Option<String>,
    /// Replace OUTPUT if it exists.
    #[arg(short, long)]
    force: bool,
}

fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (num, mult) = match t.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&t[..t.len() - 1], 1u64 << 10),
        Some('M') => (&t[..t.len() - 1], 1 << 20),
        Some('G') => (&t[..t.len() - 1], 1 << 30),
        _ => (t, 1),
    };
    num.parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mult))
        .ok_or_else(|| format!("bad size {s:?}"))
}

/// A Blosc error code as a message.
pub fn blosc_err(what: &str, e: blosc2::Error) -> String {
    format!("{what}: Blosc error {} ({})", e.code(), e.message())
}

/// Threads for the chunk engine.
pub fn cores() -> i16 {
    rayon::current_num_threads().clamp(1, 64) as i16
}

impl CompressArgs {
    fn to_opts(&self) -> Result<EncodeOpts, String> {
        let codec = match &self.codec {
            None => None,
            Some(c) => Some(
                blosc2::registry::codec_code(&c.to_ascii_lowercase())
                    .ok_or_else(|| format!("unknown codec {c:?}"))?,
            ),
        };
        let filters = if self.filters.is_empty() {
            None
        } else {
            Some(
                self.filters
                    .iter()
                    .map(|f| match f.to_ascii_lowercase().as_str() {
                        "none" | "noshuffle" => Ok(0),
                        "shuffle" => Ok(1),
                        "bitshuffle" => Ok(2),
                        "delta" => Ok(3),
                        "trunc_prec" => Ok(4),
                        other => Err(format!("unknown filter {other:?}")),
                    })
                    .collect::<Result<Vec<u8>, String>>()?,
            )
        };
        let checksum = match &self.checksum {
            None => None,
            Some(c) => {
                Some(Checksum::from_name(c).ok_or_else(|| format!("unknown checksum {c:?}"))?)
            }
        };
        let meta = match &self.meta {
            None => None,
            Some(m) => Some(serde_json::from_str(m).map_err(|e| format!("--meta: {e}"))?),
        };
        Ok(EncodeOpts {
            codec,
            clevel: self.clevel,
            filters,
            typesize: self.typesize,
            chunk_size: self.chunk_size,
            nthreads: cores(),
            shape: self.shape.clone(),
            chunkshape: self.chunkshape.clone(),
            blockshape: self.blockshape.clone(),
            dtype: self.dtype.clone(),
            checksum,
            no_offsets: self.no_offsets,
            max_app_chunks: self.max_app_chunks,
            meta,
        })
    }

    fn out_format(&self, output: &Path) -> Result<OutFormat, String> {
        self.format
            .or_else(|| OutFormat::from_extension(output))
            .ok_or_else(|| {
                format!(
                    "{}: cannot tell the output format from the name; use --format",
                    output.display()
                )
            })
    }
}

fn prepare_output(output: &Path, force: bool) -> Result<(), String> {
    if output.exists() {
        if !force {
            return Err(format!(
                "{} exists (use --force to replace it)",
                output.display()
            ));
        }
        let r = if output.is_dir() {
            std::fs::remove_dir_all(output)
        } else {
            std::fs::remove_file(output)
        };
        r.map_err(|e| format!("{}: {e}", output.display()))?;
    }
    Ok(())
}

fn compress_file(input: &Path, output: &Path, a: &CompressArgs, quiet: bool) -> Result<(), String> {
    let fmt = a.out_format(output)?;
    let opts = a.to_opts()?;
    let f = File::open(input).map_err(|e| format!("{}: {e}", input.display()))?;
    let len = f.metadata().map_err(|e| e.to_string())?.len();
    prepare_output(output, a.force)?;
    let bar = Progress::new(Some(len), quiet, "compress");
    let r = encode::encode(
        &mut BufReader::with_capacity(1 << 20, f),
        len,
        output,
        fmt,
        &opts,
        &bar,
    );
    bar.finish();
    r
}

fn decompress(input: &Path, output: &Path, quiet: bool) -> Result<u64, String> {
    let fmt = detect(input)?;
    let bar = Progress::new(decode::announced_nbytes(input, fmt), quiet, "decompress");
    let r = if output == Path::new("-") {
        let mut w = BufWriter::with_capacity(1 << 20, std::io::stdout());
        decode::decode(input, fmt, &mut w, &bar).and_then(|n| {
            w.flush().map_err(|e| e.to_string())?;
            Ok(n)
        })
    } else {
        let mut f = File::create(output).map_err(|e| format!("{}: {e}", output.display()))?;
        if decode::overlaps_writes(fmt) {
            decode::decode(input, fmt, &mut f, &bar)
        } else {
            let mut w = bgwrite::BgWriter::new(f);
            let n = decode::decode(input, fmt, &mut w, &bar);
            let done = w.finish().map_err(|e| format!("{}: {e}", output.display()));
            n.and_then(|n| done.map(|()| n))
        }
    };
    bar.finish();
    if r.is_err() && output != Path::new("-") {
        let _ = std::fs::remove_file(output);
    }
    r
}

fn verify(path: &Path, quiet: bool) -> Result<String, String> {
    let fmt = detect(path)?;
    let bar = Progress::new(decode::announced_nbytes(path, fmt), quiet, "verify");
    let mut sink = std::io::sink();
    let what = match fmt {
        Format::BcolzCTable => {
            let t = blosc2::bcolz::CTable::open(path).map_err(|e| e.to_string())?;
            let mut total = 0;
            for name in t.names() {
                total += decode::decode(&path.join(name), Format::BcolzCArray, &mut sink, &bar)
                    .map_err(|e| format!("column {name}: {e}"))?;
            }
            format!("{} columns, {total} bytes", t.names().len())
        }
        Format::Bloscpack => {
            let f = File::open(path).map_err(|e| e.to_string())?;
            let mut r = blosc2::bloscpack::Reader::new(f).map_err(|e| e.to_string())?;
            let cs = r.header().checksum;
            let n = r
                .unpack_to(&mut sink, &mut |n| bar.set(n))
                .map_err(|e| e.to_string())?;
            format!(
                "{} chunks, {n} bytes, {cs} checksums match",
                r.header().nchunks
            )
        }
        _ => format!("{} bytes", decode::decode(path, fmt, &mut sink, &bar)?),
    };
    bar.finish();
    Ok(format!("{}: OK ({}, {what})", path.display(), fmt.name()))
}

fn convert(input: &Path, output: &Path, a: &CompressArgs, quiet: bool) -> Result<(), String> {
    let fmt = detect(input)?;
    if fmt == Format::BcolzCTable {
        let t = blosc2::bcolz::CTable::open(input).map_err(|e| e.to_string())?;
        prepare_output(output, a.force)?;
        std::fs::create_dir_all(output).map_err(|e| e.to_string())?;
        for name in t.names() {
            let col = input.join(name);
            let target = output.join(format!("{name}.b2nd"));
            convert_one(
                &col,
                Format::BcolzCArray,
                &target,
                OutFormat::B2nd,
                a,
                quiet,
            )
            .map_err(|e| format!("column {name}: {e}"))?;
        }
        return Ok(());
    }
    let out_fmt = a.out_format(output)?;
    prepare_output(output, a.force)?;
    convert_one(input, fmt, output, out_fmt, a, quiet)
}

/// Decodes `input` to a temporary file next to `output`, then compresses that, carrying
/// over the item size, shape and dtype the input knows.
fn convert_one(
    input: &Path,
    fmt: Format,
    output: &Path,
    out_fmt: OutFormat,
    a: &CompressArgs,
    quiet: bool,
) -> Result<(), String> {
    let dir = output
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let tmp = dir.join(format!(
        ".{}.raw-{}",
        output.file_name().and_then(|n| n.to_str()).unwrap_or("out"),
        std::process::id()
    ));
    let run = || -> Result<(), String> {
        decompress(input, &tmp, quiet)?;
        let mut args = a.clone();
        args.format = Some(out_fmt);
        args.force = true;
        if let Ok(v) = info::info(input, fmt) {
            if args.shape.is_none() {
                args.shape = v
                    .get("shape")
                    .and_then(|s| serde_json::from_value(s.clone()).ok());
            }
            if args.dtype.is_none() {
                args.dtype = v.get("dtype").and_then(|d| d.as_str()).map(str::to_string);
            }
            if args.typesize.is_none() && args.dtype.is_none() {
                args.typesize = v
                    .get("typesize")
                    .and_then(|t| t.as_u64())
                    .map(|t| t as usize);
            }
        }
        compress_file(&tmp, output, &args, quiet)
    };
    let r = run();
    let _ = std::fs::remove_file(&tmp);
    r
}

fn run(cli: Cli) -> Result<(), String> {
    if let Some(n) = cli.nthreads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build_global()
            .map_err(|e| e.to_string())?;
    }
    let band = usize::try_from(cli.fortran_band.max(1)).unwrap_or(usize::MAX);
    let _ = decode::FORTRAN_BAND.set(band);
    match &cli.cmd {
        Cmd::Decompress { input, output } => decompress(input, output, cli.quiet).map(|_| ()),
        Cmd::Compress {
            input,
            output,
            opts,
        } => compress_file(input, output, opts, cli.quiet),
        Cmd::Info { path, json } => {
            let v = info::info(path, detect(path)?)?;
            if *json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?
                );
            } else {
                info::print_text(&v, 0);
            }
            Ok(())
        }
        Cmd::Verify { path } => verify(path, cli.quiet).map(|m| println!("{m}")),
        Cmd::Convert {
            input,
            output,
            opts,
        } => convert(input, output, opts, cli.quiet),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    blosc2::global::init();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("blosc2-oxide: error: {e}");
            ExitCode::FAILURE
        }
    }
}
