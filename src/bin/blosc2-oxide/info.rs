//! `info`: what a container holds, as JSON (printed as JSON or as indented text).

use std::fs::File;
use std::path::Path;

use blosc2::bcolz::{CArray, CTable};
use blosc2::bloscpack::Reader;
use blosc2::schunk::SuperChunk;
use serde_json::{json, Value};

use crate::blosc_err;
use crate::detect::Format;

fn codec_of_flags(flags: u8) -> &'static str {
    blosc2::registry::complib_name_of_format(flags >> 5).unwrap_or("unknown")
}

fn shuffle_of_flags(flags: u8) -> &'static str {
    match (flags & 0x01 != 0, flags & 0x04 != 0) {
        (true, true) => "bitshuffle",
        (true, false) => "shuffle",
        (false, true) => "bitshuffle",
        (false, false) => "none",
    }
}

fn ratio(nbytes: u64, cbytes: u64) -> Value {
    if cbytes == 0 {
        Value::Null
    } else {
        json!((nbytes as f64 / cbytes as f64 * 1000.0).round() / 1000.0)
    }
}

fn dir_size(path: &Path) -> u64 {
    let Ok(rd) = std::fs::read_dir(path) else {
        return 0;
    };
    rd.flatten()
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => dir_size(&e.path()),
            Ok(m) => m.len(),
            Err(_) => 0,
        })
        .sum()
}

fn carray_info(a: &CArray) -> Value {
    let cbytes = dir_size(a.root());
    json!({
        "shape": a.shape(),
        "dtype": a.typestr(),
        "chunklen": a.chunklen(),
        "nchunks": a.nchunks(),
        "leftover_rows": a.leftover_rows(),
        "codec": a.cparams().cname,
        "clevel": a.cparams().clevel,
        "shuffle": a.cparams().shuffle,
        "nbytes": a.nbytes(),
        "cbytes": cbytes,
        "ratio": ratio(a.nbytes(), cbytes),
        "attrs": a.attrs(),
    })
}

fn schunk_info(sc: &SuperChunk) -> Value {
    let cp = sc.cparams();
    let filters: Vec<&str> = cp
        .filters
        .iter()
        .filter(|&&f| f != 0)
        .map(|&f| match f {
            1 => "shuffle",
            2 => "bitshuffle",
            3 => "delta",
            4 => "trunc_prec",
            _ => "plugin",
        })
        .collect();
    let metas: Vec<Value> = sc
        .metalayers()
        .iter()
        .map(|m| json!({"name": m.name.to_string(), "len": m.content.len()}))
        .collect();
    let vl: Vec<String> = sc.vlmeta_names().iter().map(|n| n.to_string()).collect();
    json!({
        "nchunks": sc.nchunks(),
        "chunksize": sc.chunksize(),
        "typesize": sc.typesize(),
        "codec": blosc2::registry::codec_name(i32::from(cp.compcode)).unwrap_or("plugin"),
        "clevel": cp.clevel,
        "filters": filters,
        "nbytes": sc.nbytes(),
        "cbytes": sc.cbytes(),
        "ratio": ratio(sc.nbytes().max(0) as u64, sc.cbytes().max(0) as u64),
        "metalayers": metas,
        "vlmetalayers": vl,
    })
}

/// The description of `path`.
pub fn info(path: &Path, fmt: Format) -> Result<Value, String> {
    let mut v = match fmt {
        Format::Bloscpack => {
            let f = File::open(path).map_err(|e| e.to_string())?;
            let mut r = Reader::new(f).map_err(|e| e.to_string())?;
            let h = *r.header();
            let first = r.next_chunk().map_err(|e| e.to_string())?;
            let nbytes = r.nbytes().unwrap_or(0);
            let mut v = json!({
                "version": h.format_version,
                "checksum": h.checksum.name(),
                "typesize": h.typesize,
                "chunk_size": h.chunk_size,
                "last_chunk": h.last_chunk,
                "nchunks": h.nchunks,
                "max_app_chunks": h.max_app_chunks,
                "offsets": h.offsets,
                "nbytes": nbytes,
                "cbytes": r.file_len(),
                "ratio": ratio(nbytes, r.file_len()),
                "metadata": r.metadata(),
            });
            if let Some(c) = first {
                v["codec"] = json!(codec_of_flags(c.data[2]));
                v["shuffle"] = json!(shuffle_of_flags(c.data[2]));
            }
            if let Some(m) = r.meta_header() {
                v["metadata_header"] = json!({
                    "codec": m.codec.name(),
                    "checksum": m.checksum.name(),
                    "meta_size": m.meta_size,
                    "max_meta_size": m.max_meta_size,
                    "meta_comp_size": m.meta_comp_size,
                });
            }
            if let Some(Ok(np)) = r.numpy() {
                v["shape"] = json!(np.shape);
                v["dtype"] = json!(np.dtype_str());
                v["order"] = json!(if np.fortran { "F" } else { "C" });
            }
            v
        }
        Format::BcolzCArray => carray_info(&CArray::open(path).map_err(|e| e.to_string())?),
        Format::BcolzCTable => {
            let t = CTable::open(path).map_err(|e| e.to_string())?;
            let mut cols = serde_json::Map::new();
            for n in t.names() {
                cols.insert(
                    n.clone(),
                    carray_info(&t.column(n).map_err(|e| e.to_string())?),
                );
            }
            json!({
                "nrows": t.len().map_err(|e| e.to_string())?,
                "names": t.names(),
                "columns": cols,
                "attrs": t.attrs(),
            })
        }
        Format::CFrame | Format::SFrame | Format::B2nd => {
            let sc = SuperChunk::open(path, 0, None).map_err(|e| blosc_err("open", e))?;
            let mut v = schunk_info(&sc);
            if fmt == Format::B2nd {
                let a = blosc2::b2nd::Array::from_schunk(sc).map_err(|e| blosc_err("b2nd", e))?;
                let g = a.geometry();
                v["shape"] = json!(g.shape());
                v["chunkshape"] = json!(g.chunkshape());
                v["blockshape"] = json!(g.blockshape());
                v["dtype"] = json!(a.dtype());
                let nbytes = g.nitems().max(0) as u64 * a.typesize().max(0) as u64;
                v["padded_nbytes"] = v["nbytes"].clone();
                v["nbytes"] = json!(nbytes);
                v["ratio"] = ratio(nbytes, v["cbytes"].as_u64().unwrap_or(0));
            }
            v
        }
        Format::Chunk => {
            let mut head = [0u8; 32];
            let mut f = File::open(path).map_err(|e| e.to_string())?;
            let n = std::io::Read::read(&mut f, &mut head).map_err(|e| e.to_string())?;
            let i = blosc2::cbuffer::basic_info(&head[..n]).map_err(|e| blosc_err("chunk", e))?;
            json!({
                "version": i.version,
                "typesize": i.typesize,
                "nbytes": i.nbytes,
                "cbytes": i.cbytes,
                "blocksize": i.blocksize,
                "codec": codec_of_flags(i.flags),
                "shuffle": shuffle_of_flags(i.flags),
                "ratio": ratio(i.nbytes.max(0) as u64, i.cbytes.max(0) as u64),
            })
        }
    };
    let mut out = serde_json::Map::new();
    out.insert("path".into(), json!(path.display().to_string()));
    out.insert("format".into(), json!(fmt.name()));
    if let Value::Object(m) = &mut v {
        out.append(m);
    }
    Ok(Value::Object(out))
}

/// Prints `v` as indented `key: value` lines.
pub fn print_text(v: &Value, indent: usize) {
    let Value::Object(m) = v else {
        println!("{v}");
        return;
    };
    for (k, val) in m {
        match val {
            Value::Object(inner) if !inner.is_empty() && indent < 4 => {
                println!("{:indent$}{k}:", "");
                print_text(val, indent + 2);
            }
            Value::String(s) => println!("{:indent$}{k}: {s}", ""),
            _ => println!("{:indent$}{k}: {val}", ""),
        }
    }
}
