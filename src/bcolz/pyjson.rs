//! JSON as Python's `json.dumps(obj)` writes it (`", "` and `": "` separators, non-ASCII
//! escaped), which bcolz uses for every metadata file; and numpy dtype spellings.

use serde_json::Value;

fn push_escaped(out: &mut String, s: &str) {
    let quoted = Value::String(s.to_string()).to_string();
    for c in quoted.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        }
    }
}

fn write(out: &mut String, v: &Value) {
    match v {
        Value::Array(items) => {
            out.push('[');
            for (k, item) in items.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                write(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (k, (key, item)) in map.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                push_escaped(out, key);
                out.push_str(": ");
                write(out, item);
            }
            out.push('}');
        }
        Value::String(s) => push_escaped(out, s),
        other => out.push_str(&other.to_string()),
    }
}

/// `json.dumps(value)` followed by a newline, as bcolz writes its files.
pub fn dumps_line(value: &Value) -> Vec<u8> {
    let mut s = String::new();
    write(&mut s, value);
    s.push('\n');
    s.into_bytes()
}

const NAMES: [(&str, &str); 14] = [
    ("b1", "bool"),
    ("i1", "int8"),
    ("u1", "uint8"),
    ("i2", "int16"),
    ("u2", "uint16"),
    ("f2", "float16"),
    ("i4", "int32"),
    ("u4", "uint32"),
    ("f4", "float32"),
    ("i8", "int64"),
    ("u8", "uint64"),
    ("f8", "float64"),
    ("c8", "complex64"),
    ("c16", "complex128"),
];

/// The name numpy prints for a little-endian or byte type string (`<i8` → `int64`);
/// other spellings are returned unchanged.
pub fn numpy_name(typestr: &str) -> String {
    let body = typestr.strip_prefix(['<', '|', '=']).unwrap_or(typestr);
    NAMES
        .iter()
        .find(|(code, _)| *code == body)
        .map_or_else(|| typestr.to_string(), |(_, name)| name.to_string())
}

/// The type string of a numpy name (`int64` → `<i8`, `bool` → `|b1`); other spellings
/// are returned unchanged.
pub fn typestr(name: &str) -> String {
    NAMES.iter().find(|(_, n)| *n == name).map_or_else(
        || name.to_string(),
        |(code, _)| {
            let order = if code.ends_with('1') && !code.starts_with('c') {
                '|'
            } else {
                '<'
            };
            format!("{order}{code}")
        },
    )
}
