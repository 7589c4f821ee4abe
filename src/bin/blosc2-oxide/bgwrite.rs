//! A writer that hands full buffers to a background thread, so that decoding the next
//! chunks overlaps with writing the previous ones (at most a few buffers in flight).

use std::io::{self, Write};
use std::sync::mpsc::{sync_channel, SyncSender};
use std::thread::JoinHandle;

/// Bytes gathered before a buffer is handed over.
const BUF: usize = 4 << 20;
/// Buffers in flight.
const DEPTH: usize = 4;

/// Writes on a background thread.
pub struct BgWriter {
    tx: Option<SyncSender<Vec<u8>>>,
    thread: Option<JoinHandle<io::Result<()>>>,
    buf: Vec<u8>,
}

impl BgWriter {
    /// Starts the thread that writes to `out`.
    pub fn new<W: Write + Send + 'static>(mut out: W) -> BgWriter {
        let (tx, rx) = sync_channel::<Vec<u8>>(DEPTH);
        let thread = std::thread::spawn(move || {
            for b in rx {
                out.write_all(&b)?;
            }
            out.flush()
        });
        BgWriter {
            tx: Some(tx),
            thread: Some(thread),
            buf: Vec::with_capacity(BUF),
        }
    }

    fn send(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let b = std::mem::replace(&mut self.buf, Vec::with_capacity(BUF));
        match &self.tx {
            Some(tx) if tx.send(b).is_ok() => Ok(()),
            _ => self.join(),
        }
    }

    fn join(&mut self) -> io::Result<()> {
        self.tx = None;
        match self.thread.take().map(|t| t.join()) {
            Some(Ok(r)) => r.and(Err(io::Error::other("the writer thread stopped"))),
            Some(Err(_)) => Err(io::Error::other("the writer thread panicked")),
            None => Err(io::Error::other("the writer thread stopped")),
        }
    }

    /// Writes what is left and waits for the thread.
    pub fn finish(mut self) -> io::Result<()> {
        self.send()?;
        self.tx = None;
        match self.thread.take().map(|t| t.join()) {
            Some(Ok(r)) => r,
            _ => Err(io::Error::other("the writer thread panicked")),
        }
    }
}

impl Write for BgWriter {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(b);
        if self.buf.len() >= BUF {
            self.send()?;
        }
        Ok(b.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.send()
    }
}
