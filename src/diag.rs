//! Diagnostics the reference prints on stderr when asked to by the environment:
//! `BLOSC_INFO` (the block layout chosen for each compression) and `BLOSC_TRACE` (a line for
//! every error returned through the C API).

use std::panic::Location;

fn enabled(name: &str) -> bool {
    std::env::var_os(name).is_some()
}

/// Prints the `BLOSC_INFO` line of a compression: codec, level, blocksize, whether blocks
/// are split, typesize.
pub fn info_layout(compcode: u8, clevel: u8, blocksize: usize, split: bool, typesize: i32) {
    if enabled("BLOSC_INFO") {
        eprintln!(
            "[INFO] - compcode: {compcode}, clevel: {clevel}, blocksize: {blocksize}, \
             splitmode: {}, typesize: {typesize}",
            u8::from(split)
        );
    }
}

/// Prints the `BLOSC_TRACE` line of an error: its message and where it was returned.
pub fn trace_error(message: &str, at: &Location<'_>) {
    if enabled("BLOSC_TRACE") {
        eprintln!("[error] - {message} ({}:{})", at.file(), at.line());
    }
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    /// Runs `child` in a new process of this test binary with `var` set; its stderr.
    fn stderr_of_child(var: &str) -> String {
        let exe = std::env::current_exe().expect("test binary");
        let out = Command::new(exe)
            .args(["--exact", "diag::tests::child", "--ignored", "--nocapture"])
            .env(var, "1")
            .output()
            .expect("child test");
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    }

    #[test]
    fn info_and_trace_lines_go_to_stderr() {
        // The reference prints this line for 1 MB of typesize-4 data, zstd, clevel 5.
        let want = "[INFO] - compcode: 5, clevel: 5, blocksize: 262144, splitmode: 1, typesize: 4";
        let info = stderr_of_child("BLOSC_INFO");
        assert!(info.contains(want), "{info}");
        assert!(!info.contains("[error]"));
        let trace = stderr_of_child("BLOSC_TRACE");
        assert!(
            trace.contains("[error] - Invalid parameter supplied to codec ("),
            "{trace}"
        );
        assert!(!trace.contains("[INFO]"));
    }

    #[test]
    #[ignore = "run by info_and_trace_lines_go_to_stderr in a child process"]
    fn child() {
        let src: Vec<u8> = (0..1_000_000u32).map(|i| (i / 7) as u8).collect();
        let mut dst = vec![0u8; src.len() + 32];
        let cp = crate::CParams {
            compcode: crate::constants::ZSTD,
            typesize: 4,
            ..crate::CParams::default()
        };
        crate::Context::compressor(cp)
            .compress(&src, &mut dst)
            .unwrap();
        let e = crate::Error::CodecParam;
        super::trace_error(e.message(), std::panic::Location::caller());
    }
}
