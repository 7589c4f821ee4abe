//! Tests of the stream backends.

use std::path::PathBuf;

use super::*;

fn tmp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("b2oxide-io-core-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// Writes, reads back, grows and truncates through `io`.
fn exercise(io: &dyn Io, path: &std::path::Path) {
    let mut s = io.open(path, OpenMode::Create).expect("create");
    s.write_at(0, b"hello").expect("write");
    s.write_at(10, b"world").expect("write past the end");
    assert_eq!(s.size().expect("size"), 15);
    let mut buf = [0xffu8; 15];
    s.read_at(0, &mut buf).expect("read");
    assert_eq!(&buf, b"hello\0\0\0\0\0world");
    assert!(
        s.read_at(12, &mut [0u8; 4]).is_err(),
        "reads past the end fail"
    );
    s.truncate(7).expect("truncate");
    assert_eq!(read_vec(s.as_mut(), 0, 7).expect("read_vec"), b"hello\0\0");
    assert!(read_vec(s.as_mut(), 5, 3).is_err());
    drop(s);
    let mut r = io.open(path, OpenMode::Read).expect("reopen");
    assert_eq!(r.size().expect("size"), 7);
}

#[test]
fn stdio_streams() {
    let p = tmp("stdio");
    exercise(&StdioIo, &p);
    assert!(StdioIo.open(&tmp("missing"), OpenMode::Read).is_err());
    let _ = std::fs::remove_file(&p);
}

#[test]
fn mmap_streams() {
    let p = tmp("mmap");
    exercise(&MmapIo::default(), &p);
    let ro = MmapIo {
        mode: Some(MmapMode::Read),
        ..MmapIo::default()
    };
    let mut s = ro.open(&p, OpenMode::ReadWrite).expect("read-only map");
    assert!(
        s.write_at(0, b"x").is_err(),
        "read-only mappings refuse writes"
    );
    assert_eq!(s.as_slice().expect("mapped")[..5], *b"hello");
    let cow = MmapIo {
        mode: Some(MmapMode::CopyOnWrite),
        ..MmapIo::default()
    };
    let mut c = cow.open(&p, OpenMode::ReadWrite).expect("copy on write");
    c.write_at(0, b"HELLO").expect("write to the copy");
    drop(c);
    assert_eq!(&std::fs::read(&p).expect("file")[..5], b"hello");
    assert_eq!(MmapMode::from_name("w+"), Some(MmapMode::Create));
    assert_eq!(MmapMode::from_name("x"), None);
    let _ = std::fs::remove_file(&p);
}

#[test]
fn memory_streams() {
    let mut m = MemoryStream::new(Box::new(Vec::new()));
    m.write_at(3, b"abc").expect("write");
    assert_eq!(m.as_slice().expect("slice"), b"\0\0\0abc");
    assert!(m.read_at(u64::MAX, &mut [0u8; 2]).is_err());
    m.truncate(2).expect("truncate");
    assert_eq!(m.buffer().bytes(), b"\0\0");
}

#[test]
fn user_backends_need_user_ids() {
    struct Fake(u8, &'static str);
    impl Io for Fake {
        fn id(&self) -> u8 {
            self.0
        }
        fn name(&self) -> &str {
            self.1
        }
        fn open(&self, _: &std::path::Path, _: OpenMode) -> crate::Result<Box<dyn Stream>> {
            Err(crate::Error::FileOpen)
        }
    }
    assert_eq!(
        register(Arc::new(Fake(5, "low"))),
        Err(crate::Error::PluginIo)
    );
    register(Arc::new(Fake(230, "fake-core"))).expect("register");
    register(Arc::new(Fake(231, "fake-core"))).expect("a name may be shared");
    assert_eq!(
        register(Arc::new(Fake(230, "other"))),
        Err(crate::Error::PluginIo)
    );
    assert_eq!(get(230).expect("registered").name(), "fake-core");
    assert!(registered_ids().contains(&230));
}

#[test]
fn file_urls_name_local_paths() {
    use std::path::Path;
    assert_eq!(
        super::local_path(Path::new("file:///a/b.b2frame")),
        Path::new("a/b.b2frame")
    );
    assert_eq!(super::local_path(Path::new("file:///")), Path::new(""));
    assert_eq!(super::local_path(Path::new("/abs/x")), Path::new("/abs/x"));
    assert_eq!(
        super::local_path(Path::new("file://x")),
        Path::new("file://x")
    );
    assert_eq!(
        super::local_path(Path::new("file:///file:///x")),
        Path::new("file:///x")
    );
}
